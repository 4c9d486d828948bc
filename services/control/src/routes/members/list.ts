import { z } from "@hono/zod-openapi";
import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { Member } from "../../organizations/schemas.ts";
import { listMembers } from "../../verbs/members.ts";

export const listMembersRoute = controlRoute(
  {
    method: "get",
    path: "/api/organizations/{id}/members",
    operationId: "listMembers",
    tags: ["members"],
    who: "member",
    params: IdParam,
    output: { schema: z.array(Member), description: "Members with role and username" },
  },
  ({ ctx }) => listMembers({ ctx }),
);
