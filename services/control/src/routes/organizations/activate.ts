import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { ActiveSelection } from "../../organizations/schemas.ts";
import { activateOrganization } from "../../verbs/organizations.ts";

export const activateOrganizationRoute = controlRoute(
  {
    method: "post",
    path: "/api/organizations/{id}/activate",
    operationId: "activateOrganization",
    tags: ["organizations"],
    who: "member",
    params: IdParam,
    output: { schema: ActiveSelection, description: "Now active" },
  },
  ({ ctx }) => activateOrganization({ ctx }),
);
