import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { registerControlRoutes } from "../http/route.ts";
import { registerOAuthAuthorize } from "./authorize.ts";
import { registerOAuthMetadata } from "./metadata.ts";
import { registerOAuthRegistration } from "./register.ts";
import { oauthConsentRoutes } from "./routes.ts";
import { registerOAuthToken } from "./token.ts";

export { oauthEndpoints } from "./endpoints.ts";

/**
 * OAuth 2.1 for MCP clients: discovery, dynamic registration, authorization (the consent page is the browser UI's,
 * at /oauth/consent, calling the two /api/oauth routes), token and refresh.
 */
export function registerOAuthRoutes(app: App, ctx: ControlContext) {
  registerOAuthMetadata(app, ctx);
  registerOAuthRegistration(app, ctx);
  registerOAuthAuthorize(app, ctx);
  registerOAuthToken(app, ctx);
  registerControlRoutes(app, ctx, oauthConsentRoutes);
}
