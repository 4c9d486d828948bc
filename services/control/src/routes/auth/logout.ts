import { createRoute } from "@hono/zod-openapi";
import { readAccessCookie, readProviderCookie } from "../../auth/cookies.ts";
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
  app.openapi(route, async (c) => {
    // The access token ends with the session, on every replica, not when its 15 minutes run out.
    const access = readAccessCookie(c);
    if (access) await ctx.revocations.revoke(access);
    return sessionProviderFor(ctx, readProviderCookie(c)).logout(c, ctx) as never;
  });
