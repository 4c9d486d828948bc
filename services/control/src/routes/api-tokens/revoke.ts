import { IdParam } from "../../http/openapi.ts";
import { controlRoute } from "../../http/route.ts";
import { revokeApiToken } from "../../verbs/tokens.ts";

export const revokeApiTokenRoute = controlRoute(
  {
    method: "delete",
    path: "/api/settings/api-tokens/{id}",
    operationId: "revokeApiToken",
    tags: ["api-tokens"],
    who: "signed-in",
    params: IdParam,
  },
  ({ ctx, params }) => revokeApiToken({ ctx, input: params }),
);
