import { oauthClients } from "@ams/db";
import { limitBody } from "@ams/shared/http";
import { and, isNull, lt } from "drizzle-orm";
import { clientIp } from "../auth/client-ip.ts";
import { randomBase62 } from "../auth/secrets.ts";
import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { countPerAddress } from "./address-limit.ts";
import { UNUSED_CLIENT_TTL_MS } from "./endpoints.ts";
import { oauthError } from "./errors.ts";

export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;
export const MAX_CLIENT_NAME_LENGTH = 200;
/** A registration is a few hundred bytes; anything near this is not a client's metadata. */
const MAX_BODY_BYTES = 32 * 1024;

const GRANT_TYPES = ["authorization_code", "refresh_token"];

/**
 * A redirect URI a client may register: https anywhere, or http on the loopback interface (native and CLI clients
 * listen there, RFC 8252); no fragment. Anything else could send a code to a third party in clear.
 */
export function isAcceptableRedirectUri(value: unknown): value is string {
  if (typeof value !== "string" || value.length > MAX_REDIRECT_URI_LENGTH) return false;
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

/** The first thing wrong with the client's metadata, as [OAuth error, description naming the field]. */
function refusal(body: Record<string, unknown>): [string, string] | null {
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) {
    return ["invalid_redirect_uri", "redirect_uris: give at least one redirect URI"];
  }
  if (uris.length > MAX_REDIRECT_URIS) {
    return ["invalid_redirect_uri", `redirect_uris: at most ${MAX_REDIRECT_URIS} URIs (got ${uris.length})`];
  }
  for (const [i, uri] of uris.entries()) {
    if (typeof uri === "string" && uri.length > MAX_REDIRECT_URI_LENGTH) {
      return ["invalid_redirect_uri", `redirect_uris[${i}]: longer than ${MAX_REDIRECT_URI_LENGTH} characters`];
    }
    if (!isAcceptableRedirectUri(uri)) {
      return [
        "invalid_redirect_uri",
        `redirect_uris[${i}]: ${JSON.stringify(uri).slice(0, 200)} is neither https nor http on localhost`,
      ];
    }
  }
  if (body.client_name !== undefined && typeof body.client_name !== "string") {
    return ["invalid_client_metadata", "client_name: must be a string"];
  }
  if (typeof body.client_name === "string" && body.client_name.trim().length > MAX_CLIENT_NAME_LENGTH) {
    return ["invalid_client_metadata", `client_name: at most ${MAX_CLIENT_NAME_LENGTH} characters`];
  }
  if ((body.token_endpoint_auth_method ?? "none") !== "none") {
    return ["invalid_client_metadata", "token_endpoint_auth_method: only none (public clients with PKCE)"];
  }
  const grants = body.grant_types;
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((g) => !GRANT_TYPES.includes(g)))) {
    return ["invalid_client_metadata", `grant_types: only ${GRANT_TYPES.join(" and ")}`];
  }
  const responses = body.response_types;
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((r) => r !== "code"))) {
    return ["invalid_client_metadata", "response_types: only code"];
  }
  return null;
}

/**
 * Dynamic client registration (RFC 7591) for public clients: no secret, authorization code with PKCE and refresh.
 * Open to anyone, so bounded: REGISTRATIONS_PER_WINDOW per client address (429 with Retry-After), at most
 * MAX_REDIRECT_URIS redirect URIs of MAX_REDIRECT_URI_LENGTH characters, and a registration that obtained no token
 * within a day is deleted (each registration sweeps them).
 */
export function registerOAuthRegistration(app: App, ctx: ControlContext) {
  app.post("/oauth/register", limitBody(MAX_BODY_BYTES), async (c) => {
    let body: Record<string, unknown>;
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      return oauthError(c, 400, "invalid_client_metadata", "the body must be a JSON object");
    }
    if (!body || typeof body !== "object" || Array.isArray(body)) {
      return oauthError(c, 400, "invalid_client_metadata", "the body must be a JSON object");
    }
    const refused = refusal(body);
    if (refused) return oauthError(c, 400, refused[0], refused[1]);
    // Counted once the metadata is valid: a refusal stores nothing, a registration stores a client.
    await countPerAddress(ctx, "register", clientIp(c, ctx.env.TRUST_PROXY_HOPS));
    const uris = body.redirect_uris as string[];
    const name =
      typeof body.client_name === "string" && body.client_name.trim() ? body.client_name.trim() : "MCP client";
    const clientId = `mcp_${randomBase62(32)}`;
    const now = ctx.clock();
    await ctx.database.db
      .delete(oauthClients)
      .where(
        and(isNull(oauthClients.usedAt), lt(oauthClients.createdAt, new Date(now.getTime() - UNUSED_CLIENT_TTL_MS))),
      );
    await ctx.database.db
      .insert(oauthClients)
      .values({ clientId, clientName: name, redirectUris: uris, createdAt: now });
    return c.json(
      {
        client_id: clientId,
        client_id_issued_at: Math.floor(now.getTime() / 1000),
        client_name: name,
        redirect_uris: uris,
        token_endpoint_auth_method: "none",
        grant_types: GRANT_TYPES,
        response_types: ["code"],
        scope: "mcp",
      },
      201,
      { "cache-control": "no-store" },
    );
  });
}
