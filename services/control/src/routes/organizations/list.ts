import { controlRoute } from "../../http/route.ts";
import { MyOrganizations } from "../../organizations/schemas.ts";
import { listMyOrganizations } from "../../verbs/organizations.ts";

export const listMyOrganizationsRoute = controlRoute(
  {
    method: "get",
    path: "/api/organizations",
    operationId: "listMyOrganizations",
    tags: ["organizations"],
    who: "signed-in",
    output: { schema: MyOrganizations, description: "The caller's organizations" },
  },
  ({ ctx }) => listMyOrganizations({ ctx }),
);
