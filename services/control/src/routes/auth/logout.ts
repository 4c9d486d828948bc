import { registerRoute } from "@ams/shared/http";
import { readAccessCookie, readProviderCookie } from "../../auth/cookies.ts";
import { sessionProviderFor } from "../../auth/local-session-provider.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";

export const registerLogout = (app: App, ctx: ControlContext) =>
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/auth/logout",
      operationId: "logout",
      tags: ["auth"],
      output: { raw: { 302: { description: "Cookies cleared; redirect to /login" } } },
      commonProblems: false,
    },
    async (c) => {
      // The access token ends with the session, on every replica, not when its 15 minutes run out.
      const access = readAccessCookie(c);
      if (access) await ctx.revocations.revoke(access);
      return sessionProviderFor(ctx, readProviderCookie(c)).logout(c, ctx);
    },
  );
