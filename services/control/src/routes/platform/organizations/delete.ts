import { IdParam } from "../../../http/openapi.ts";
import { controlRoute } from "../../../http/route.ts";
import { deleteOrganization } from "../../../verbs/platform.ts";

export const platformDeleteOrganizationRoute = controlRoute(
  {
    method: "delete",
    path: "/api/platform/organizations/{id}",
    operationId: "platformDeleteOrganization",
    tags: ["platform"],
    who: "signed-in",
    params: IdParam,
  },
  ({ ctx, params }) => deleteOrganization({ ctx, input: params }),
);
