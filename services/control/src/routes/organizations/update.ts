import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { Organization, UpdateOrganizationInput } from "../../organizations/schemas.ts";
import { updateOrganization } from "../../verbs/organizations.ts";

export const updateOrganizationRoute = controlRoute(
  {
    method: "put",
    path: "/api/organizations/{id}",
    operationId: "updateOrganization",
    tags: ["organizations"],
    who: "member",
    params: IdParam,
    body: UpdateOrganizationInput,
    output: { schema: Organization, description: "Changed" },
  },
  ({ ctx, body }) => updateOrganization({ ctx, input: body }),
);
