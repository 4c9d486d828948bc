import { registerRoute } from "@ams/shared/http";
import { readProviderCookie, readRefreshCookie } from "../../auth/cookies.ts";
import { sessionProviderFor } from "../../auth/local-session-provider.ts";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { checkOrigin } from "../../http/csrf.ts";

/** Rotates the refresh token; a token rotated before is a reuse and ends every session of its user. */
export const registerRefresh = (app: App, ctx: ControlContext) =>
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/auth/refresh",
      operationId: "refreshSession",
      tags: ["auth"],
      output: { raw: { 204: { description: "New access and refresh cookies set" } } },
      commonProblems: false,
      problems: { 401: "Not authenticated", 403: "Cross-site request refused (Origin)" },
    },
    (c) => {
      // The refresh cookie is a credential: a cross-site page must not make the browser use it (CSRF).
      if (readRefreshCookie(c)) checkOrigin(c, [new URL(ctx.env.PUBLIC_URL).origin, ...ctx.env.TRUSTED_ORIGINS]);
      return sessionProviderFor(ctx, readProviderCookie(c)).refresh(c, ctx);
    },
  );
