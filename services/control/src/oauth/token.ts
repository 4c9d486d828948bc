import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { oauthError } from "./errors.ts";
import { exchangeCode, GrantError } from "./grants.ts";

/** The token endpoint: the authorization-code grant with PKCE for public clients (form or JSON body). */
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
    const field = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : undefined);
    if (field("grant_type") !== "authorization_code") {
      return oauthError(c, 400, "unsupported_grant_type", "only grant_type=authorization_code is supported");
    }
    const code = field("code");
    const clientId = field("client_id");
    const codeVerifier = field("code_verifier");
    if (!code || !clientId || !codeVerifier) {
      return oauthError(c, 400, "invalid_request", "code, client_id and code_verifier are required");
    }
    try {
      const tokens = await exchangeCode(ctx, { code, clientId, redirectUri: field("redirect_uri"), codeVerifier });
      return c.json(tokens, 200, { "cache-control": "no-store", pragma: "no-cache" });
    } catch (err) {
      if (err instanceof GrantError) return oauthError(c, 400, err.error, err.message);
      throw err;
    }
  });
}
