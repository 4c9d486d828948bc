import { controlRoute } from "../../http/route.ts";
import { CreateApiTokenInput, CreatedApiToken } from "../../tokens/schemas.ts";
import { createApiToken } from "../../verbs/tokens.ts";

export const createApiTokenRoute = controlRoute(
  {
    method: "post",
    path: "/api/settings/api-tokens",
    operationId: "createApiToken",
    tags: ["api-tokens"],
    who: "member",
    body: CreateApiTokenInput,
    output: { schema: CreatedApiToken, status: 201, description: "Created; the token is shown this once" },
  },
  ({ ctx, body }) => createApiToken({ ctx, input: body }),
);
