import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { Organization, RenameOrganizationInput } from "../../organizations/schemas.ts";
import { renameOrganization } from "../../verbs/organizations.ts";

export const renameOrganizationRoute = controlRoute(
  {
    method: "put",
    path: "/api/organizations/{id}",
    operationId: "renameOrganization",
    tags: ["organizations"],
    who: "member",
    params: IdParam,
    body: RenameOrganizationInput,
    output: { schema: Organization, description: "Renamed" },
  },
  ({ ctx, body }) => renameOrganization({ ctx, input: body }),
);
