import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { oauthEndpoints } from "./endpoints.ts";

/**
 * Discovery for MCP clients (MCP authorization, 2025-06-18 and later): the protected-resource metadata (RFC 9728)
 * names this service as the authorization server of the MCP endpoint; the authorization-server metadata (RFC 8414)
 * lists its endpoints: authorization code with PKCE (S256), rotating refresh tokens, public clients, dynamic
 * registration.
 */
export function registerOAuthMetadata(app: App, ctx: ControlContext) {
  const e = oauthEndpoints(ctx.env.PUBLIC_URL);
  const resource = {
    resource: e.resource,
    authorization_servers: [e.issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: ["mcp"],
    resource_name: "ArchiMate Modeling Service MCP",
  };
  for (const path of [
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-protected-resource/mcp/",
  ]) {
    app.get(path, (c) => c.json(resource, 200, { "cache-control": "public, max-age=3600" }));
  }
  const server = {
    issuer: e.issuer,
    authorization_endpoint: e.authorization,
    token_endpoint: e.token,
    registration_endpoint: e.registration,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    scopes_supported: ["mcp"],
    authorization_response_iss_parameter_supported: true,
  };
  app.get("/.well-known/oauth-authorization-server", (c) =>
    c.json(server, 200, { "cache-control": "public, max-age=3600" }),
  );
}
