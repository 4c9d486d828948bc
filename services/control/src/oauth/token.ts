import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { oauthError } from "./errors.ts";
import { exchangeCode, GrantError, refreshGrant } from "./grants.ts";
import { isThisResource } from "./request.ts";

/**
 * The token endpoint for public clients (form or JSON body, within the edge's body limit): the authorization-code
 * grant with PKCE, and the rotating refresh-token grant. A `resource` (RFC 8707) must be this service's MCP
 * endpoint, the only resource its tokens are good for.
 */
export function registerOAuthToken(app: App, ctx: ControlContext) {
  app.post("/oauth/token", async (c) => {
    const type = c.req.header("content-type") ?? "";
    let body: Record<string, unknown>;
    try {
      body = type.includes("application/json")
        ? ((await c.req.json()) as Record<string, unknown>)
        : await c.req.parseBody();
    } catch {
      return oauthError(c, 400, "invalid_request", "the body must be form-encoded (or JSON)");
    }
    if (!body || typeof body !== "object") {
      return oauthError(c, 400, "invalid_request", "the body must be form-encoded (or JSON)");
    }
    const field = (name: string) =>
      typeof body[name] === "string" && (body[name] as string).length <= 2000 ? (body[name] as string) : undefined;
    const grantType = field("grant_type");
    const clientId = field("client_id");
    const resource = field("resource");
    if (body.resource !== undefined && (resource === undefined || !isThisResource(ctx, resource))) {
      return oauthError(c, 400, "invalid_target", "resource: tokens here are for this service's MCP endpoint only");
    }
    try {
      if (grantType === "authorization_code") {
        const code = field("code");
        const codeVerifier = field("code_verifier");
        if (!code || !clientId || !codeVerifier) {
          return oauthError(c, 400, "invalid_request", "code, client_id and code_verifier are required");
        }
        const tokens = await exchangeCode(ctx, { code, clientId, redirectUri: field("redirect_uri"), codeVerifier });
        return c.json(tokens, 200, { "cache-control": "no-store", pragma: "no-cache" });
      }
      if (grantType === "refresh_token") {
        const refreshToken = field("refresh_token");
        if (!refreshToken || !clientId) {
          return oauthError(c, 400, "invalid_request", "refresh_token and client_id are required");
        }
        const tokens = await refreshGrant(ctx, { refreshToken, clientId });
        return c.json(tokens, 200, { "cache-control": "no-store", pragma: "no-cache" });
      }
      return oauthError(
        c,
        400,
        "unsupported_grant_type",
        "grant_type: only authorization_code and refresh_token are supported",
      );
    } catch (err) {
      if (err instanceof GrantError) return oauthError(c, 400, err.error, err.message);
      throw err;
    }
  });
}
