import { oauthClients } from "@ams/db";
import { randomBase62 } from "../auth/secrets.ts";
import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { oauthError } from "./errors.ts";

const MAX_REDIRECT_URIS = 10;

/**
 * A redirect URI a client may register: https anywhere, or http on the loopback interface (native and CLI clients
 * listen there, RFC 8252); no fragment. Anything else could send a code to a third party in clear.
 */
export function isAcceptableRedirectUri(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 2000) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** Dynamic client registration (RFC 7591) for public clients: no secret, authorization code with PKCE only. */
export function registerOAuthRegistration(app: App, ctx: ControlContext) {
  app.post("/oauth/register", async (c) => {
    let body: Record<string, unknown>;
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      return oauthError(c, 400, "invalid_client_metadata", "the body must be a JSON object");
    }
    if (!body || typeof body !== "object") {
      return oauthError(c, 400, "invalid_client_metadata", "the body must be a JSON object");
    }
    const uris = body.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
      return oauthError(c, 400, "invalid_redirect_uri", `redirect_uris: give 1 to ${MAX_REDIRECT_URIS} URIs`);
    }
    const bad = uris.find((u) => !isAcceptableRedirectUri(u));
    if (bad !== undefined) {
      return oauthError(
        c,
        400,
        "invalid_redirect_uri",
        `redirect_uris: ${JSON.stringify(bad).slice(0, 200)} is neither https nor http on localhost`,
      );
    }
    const method = body.token_endpoint_auth_method ?? "none";
    if (method !== "none") {
      return oauthError(
        c,
        400,
        "invalid_client_metadata",
        "token_endpoint_auth_method: only none (public clients with PKCE)",
      );
    }
    const name =
      typeof body.client_name === "string" && body.client_name.trim() ? body.client_name.trim() : "MCP client";
    const clientId = `mcp_${randomBase62(32)}`;
    const now = ctx.clock();
    await ctx.database.db
      .insert(oauthClients)
      .values({ clientId, clientName: name.slice(0, 200), redirectUris: uris as string[], createdAt: now });
    return c.json(
      {
        client_id: clientId,
        client_id_issued_at: Math.floor(now.getTime() / 1000),
        client_name: name.slice(0, 200),
        redirect_uris: uris,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code"],
        response_types: ["code"],
        scope: "mcp",
      },
      201,
      { "cache-control": "no-store" },
    );
  });
}
