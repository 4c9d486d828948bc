import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { registerOAuthAuthorize } from "./authorize.ts";
import { registerOAuthMetadata } from "./metadata.ts";
import { registerOAuthRegistration } from "./register.ts";
import { registerOAuthToken } from "./token.ts";

export { oauthEndpoints } from "./endpoints.ts";

/** OAuth 2.1 for MCP clients: discovery, dynamic registration, authorization with consent, token. */
export function registerOAuthRoutes(app: App, ctx: ControlContext) {
  registerOAuthMetadata(app, ctx);
  registerOAuthRegistration(app, ctx);
  registerOAuthAuthorize(app, ctx);
  registerOAuthToken(app, ctx);
}
