import { registerRoute } from "@ams/shared/http";
import { readAccessCookie, readProviderCookie, readRefreshCookie } from "../../auth/cookies.ts";
import { sessionProviderFor } from "../../auth/local-session-provider.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { checkOrigin } from "../../http/csrf.ts";
import { clearOidcSessionCookies } from "../../sso/cookies.ts";

/**
 * Signing out is a POST from the app's own pages (CSRF-checked like every cookie write): it ends the session on
 * every replica (the access token at once, the refresh token) and, after an identity-provider sign-in, sends the
 * browser through the provider's end-session endpoint. GET only clears this browser's cookies and goes to /login:
 * a link or a provider's redirect may land there, and a GET must change nothing else.
 */
export function registerLogout(app: App, ctx: ControlContext) {
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/auth/logout",
      operationId: "logout",
      tags: ["auth"],
      output: { raw: { 302: { description: "Session ended, cookies cleared; redirect to /login (or the provider)" } } },
      commonProblems: false,
      problems: { 403: "Cross-site request refused (Origin)" },
    },
    async (c) => {
      // Without session cookies there is nothing to end (and nothing a cross-site page could end).
      const access = readAccessCookie(c);
      if (access || readRefreshCookie(c)) {
        checkOrigin(c, [new URL(ctx.env.PUBLIC_URL).origin, ...ctx.env.TRUSTED_ORIGINS]);
      }
      // The access token ends with the session, on every replica, not when its 15 minutes run out.
      if (access) await ctx.revocations.revoke(access);
      return sessionProviderFor(ctx, readProviderCookie(c)).logout(c, ctx);
    },
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/auth/logout",
      operationId: "clearSessionCookies",
      tags: ["auth"],
      description: "Clears this browser's session cookies and redirects to /login; ends nothing (POST signs out).",
      output: { raw: { 302: { description: "Cookies cleared; redirect to /login" } } },
      commonProblems: false,
    },
    (c) => {
      clearOidcSessionCookies(c);
      return c.redirect("/login", 302);
    },
  );
}
