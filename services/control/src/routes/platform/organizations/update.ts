import { IdParam } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { Organization, SuspendOrganizationInput } from "../../../organizations/schemas.ts";
import { updatePlatformOrganization } from "../../../verbs/platform.ts";

export const platformUpdateOrganizationRoute = controlRoute(
  {
    method: "put",
    path: "/api/platform/organizations/{id}",
    operationId: "platformSetOrganizationEnabled",
    tags: ["platform"],
    who: "signed-in",
    params: IdParam,
    body: SuspendOrganizationInput,
    output: { schema: Organization, description: "Updated: suspended or reactivated (enabled) and/or renamed (name)" },
  },
  ({ ctx, params, body }) => updatePlatformOrganization({ ctx, input: { id: params.id, ...body } }),
);
