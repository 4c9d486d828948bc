import { z } from "@hono/zod-openapi";
import { controlRoute } from "../../../http/route.ts";
import { Organization } from "../../../organizations/schemas.ts";
import { listAllOrganizations } from "../../../verbs/platform.ts";

export const platformListOrganizationsRoute = controlRoute(
  {
    method: "get",
    path: "/api/platform/organizations",
    operationId: "platformListOrganizations",
    tags: ["platform"],
    who: "signed-in",
    output: { schema: z.array(Organization), description: "Every organization (metadata only)" },
  },
  ({ ctx }) => listAllOrganizations({ ctx }),
);
