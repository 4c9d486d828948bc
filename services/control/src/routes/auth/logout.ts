import { createRoute } from "@hono/zod-openapi";
import { readProviderCookie } from "../../auth/cookies.ts";
import { sessionProviderFor } from "../../auth/local-session-provider.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";

const route = createRoute({
  method: "get",
  path: "/api/auth/logout",
  operationId: "logout",
  tags: ["auth"],
  responses: { 302: { description: "Cookies cleared; redirect to /login" } },
});

export const registerLogout = (app: App, ctx: ControlContext) =>
  app.openapi(route, (c) => sessionProviderFor(ctx, readProviderCookie(c)).logout(c, ctx) as never);
