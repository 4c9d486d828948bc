import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import type { SsoRuntime } from "../../sso/runtime.ts";
import { registerSsoCallback } from "./callback.ts";
import { registerSsoLogin } from "./login.ts";

/**
 * GET /api/auth/login and /api/auth/callback. Always registered: without SSO (the default) login sends the
 * browser to the local sign-in page, so the page middleware can use one URL whichever sign-in is configured.
 * Refresh and logout stay in routes/auth, dispatched to the "oidc" session provider by the auth_provider cookie.
 */
export function registerSsoRoutes(app: App, ctx: ControlContext, sso: SsoRuntime | undefined): void {
  registerSsoLogin(app, sso);
  registerSsoCallback(app, ctx, sso);
}
