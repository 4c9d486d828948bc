import { z } from "@hono/zod-openapi";
import { IdParam } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { Member } from "../../../organizations/schemas.ts";
import { listOrganizationMembers } from "../../../verbs/platform.ts";

export const platformListMembersRoute = controlRoute(
  {
    method: "get",
    path: "/api/platform/organizations/{id}/members",
    operationId: "platformListMembers",
    tags: ["platform"],
    who: "signed-in",
    params: IdParam,
    output: { schema: z.array(Member), description: "Members" },
  },
  ({ ctx, params }) => listOrganizationMembers({ ctx, input: params }),
);
