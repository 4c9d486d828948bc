import { z } from "@hono/zod-openapi";
import { controlRoute } from "../../http/route.ts";
import { ApiToken } from "../../tokens/schemas.ts";
import { listApiTokens } from "../../verbs/tokens.ts";

export const listApiTokensRoute = controlRoute(
  {
    method: "get",
    path: "/api/settings/api-tokens",
    operationId: "listApiTokens",
    tags: ["api-tokens"],
    who: "signed-in",
    output: { schema: z.array(ApiToken), description: "The caller's tokens (never the secret)" },
  },
  ({ ctx }) => listApiTokens({ ctx }),
);
