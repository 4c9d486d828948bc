import { createRoute } from "@hono/zod-openapi";
import { readProviderCookie } from "../../auth/cookies.ts";
import { sessionProviderFor } from "../../auth/local-session-provider.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { problemResponses } from "../../http/openapi.ts";

const route = createRoute({
  method: "post",
  path: "/api/auth/refresh",
  operationId: "refreshSession",
  tags: ["auth"],
  responses: {
    204: { description: "New access and refresh cookies set" },
    401: problemResponses[401],
  },
});

/** Rotates the refresh token; a token rotated before is a reuse and ends every session of its user. */
export const registerRefresh = (app: App, ctx: ControlContext) =>
  app.openapi(route, (c) => sessionProviderFor(ctx, readProviderCookie(c)).refresh(c, ctx) as never);
