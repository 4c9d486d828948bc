import type { Database } from "@ams/db";
import type { Context } from "hono";
import { clientIp } from "../auth/client-ip.ts";
import type { LoginLimiter } from "../auth/login-limit.ts";
import { normalizeUsername } from "../auth/users.ts";
import type { ControlEnv } from "../env.ts";
import { unauthenticated } from "../gateway/authorize.ts";
import type { App } from "../http/app-env.ts";
import type { SessionLookup } from "./authenticate.ts";
import { SESSION_BASE_PATH, type SessionAuth } from "./better-auth.ts";
import { listProviders } from "./providers.ts";
import { listSessions, revokeSession } from "./sessions.ts";

/** Endpoints after which this process forgets the caller's cached session lookups (the session just ended). */
const ENDING = ["/sign-out", "/revoke-session", "/revoke-sessions", "/revoke-other-sessions", "/change-password"];

/**
 * The session profile's sign-in surface under /auth/*: better-auth's handler (POST /auth/sign-in/username, under
 * the database sign-in limit; POST /auth/change-password; POST /auth/sign-out, GET /auth/list-sessions,
 * POST /auth/revoke-session, /auth/revoke-other-sessions, GET /auth/get-session, the provider sign-in
 * POST /auth/sign-in/social and its GET /auth/callback/:provider) and ours: GET /auth/providers, GET /auth/sessions
 * (the caller's sessions without tokens) and DELETE /auth/sessions/:id (revoke one). better-auth checks the Origin of
 * its own POSTs against the trusted origins. The session token never appears in an answer body (only in the
 * httpOnly cookie), so no script can read it.
 */
export function registerSessionAuthRoutes(
  app: App,
  deps: {
    auth: SessionAuth;
    lookup: SessionLookup;
    env: ControlEnv;
    database: Database;
    clock: () => Date;
    limiter: LoginLimiter;
  },
): void {
  const caller = async (c: Context) => {
    const principal = await deps.lookup.authenticate(c);
    if (!principal?.sessionId) throw unauthenticated();
    return principal;
  };
  app.get(`${SESSION_BASE_PATH}/providers`, (c) => c.json({ providers: listProviders(deps.env) }));
  app.get(`${SESSION_BASE_PATH}/sessions`, async (c) => {
    const principal = await caller(c);
    return c.json({ sessions: await listSessions(deps.database, principal, deps.clock()) });
  });
  app.delete(`${SESSION_BASE_PATH}/sessions/:id`, async (c) => {
    const principal = await caller(c);
    await revokeSession(deps.database, principal, c.req.param("id"));
    deps.lookup.forgetUser(principal.userId);
    return c.body(null, 204);
  });
  // The sign-in limit of the local profile, on the same database rows, so every control replica counts the same
  // failures: 5 per 15 minutes per address, 5 per username from one address, 50 per username from anywhere; 429
  // with Retry-After. A success clears that username's failures from that address.
  app.post(`${SESSION_BASE_PATH}/sign-in/username`, async (c) => {
    const body: unknown = await c.req.raw
      .clone()
      .json()
      .catch(() => null);
    const name = body && typeof body === "object" && "username" in body ? body.username : undefined;
    // Without a username better-auth answers the validation error; nothing to count.
    if (typeof name !== "string" || !name.trim()) return withoutSessionToken(await deps.auth.handler(c.req.raw));
    const ip = clientIp(c, deps.env.TRUST_PROXY_HOPS);
    const attempt = await deps.limiter.begin({ username: normalizeUsername(name), ip });
    const response = await deps.auth.handler(c.req.raw);
    if (response.ok) await attempt.succeeded();
    return withoutSessionToken(response);
  });
  app.on(["GET", "POST"], `${SESSION_BASE_PATH}/*`, async (c) => {
    const subPath = c.req.path.slice(SESSION_BASE_PATH.length);
    const ending = ENDING.includes(subPath);
    const before = ending ? await deps.lookup.authenticate(c).catch(() => null) : null;
    const response = await deps.auth.handler(c.req.raw);
    if (before) deps.lookup.forgetUser(before.userId);
    return withoutSessionToken(response);
  });
}

/** better-auth answers sign-in with `{token, user}`; the token belongs in the httpOnly cookie only. */
async function withoutSessionToken(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new Response(text, response);
  }
  if (body && typeof body === "object" && "token" in body) delete (body as { token?: unknown }).token;
  if (Array.isArray(body)) for (const item of body) if (item && typeof item === "object") delete item.token;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, statusText: response.statusText, headers });
}
