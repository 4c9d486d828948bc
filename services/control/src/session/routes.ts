import { AppError } from "@ams/shared";
import type { Context } from "hono";
import { recordAuditEvent, subjectOf } from "../audit/record.ts";
import { clientIp } from "../auth/client-ip.ts";
import { findUserByUsername, normalizeUsername } from "../auth/users.ts";
import type { ControlContext } from "../context.ts";
import type { App } from "../http/app-env.ts";
import { registerControlRoutes } from "../http/route.ts";
import { SESSION_BASE_PATH, type SessionAuth } from "./better-auth.ts";
import { sessionRoutes } from "./contracts.ts";
import { registerSessionPasswordReset } from "./password-reset-routes.ts";
import { PROVIDER_SIGN_IN_PATH, providerSignInEnabled } from "./providers.ts";
import { auditTwoFactor, twoFactorAccount, VERIFY_TOTP, verifyTotpGuarded } from "./two-factor.ts";

type Method = "GET" | "POST";
/** One better-auth endpoint the product uses, and whether the caller's cached session lookups end with it. */
type Allowed = { method: Method; path: string; ends?: boolean; when?: (ctx: ControlContext) => boolean };

const providerConfigured = (ctx: ControlContext) => providerSignInEnabled(ctx.env);

/**
 * THE better-auth endpoints a browser may reach (paths under /auth). Everything else better-auth serves — its admin
 * plugin (set-role, impersonate-user, create-user, remove-user, set-user-password, ban-user, list-users…),
 * update-user, change-email, delete-user, sign-up, the e-mail sign-in, account linking, its raw
 * session listing (tokens included) — answers 404: those bypass the product's own rules (last owner, forced password
 * change, the gateway's authorization). The platform admin manages accounts and roles through /api.
 */
export const ALLOWED_BETTER_AUTH: readonly Allowed[] = [
  // The username sign-in has its own route below (the database sign-in limit).
  { method: "POST", path: "/sign-in/username" },
  { method: "POST", path: "/sign-out", ends: true },
  // The forced or chosen password change (revokes the other sessions, better-auth.ts).
  { method: "POST", path: "/change-password", ends: true },
  // "Forgot password": both have their own routes (password-reset-routes.ts: the answer before the work, limits).
  { method: "POST", path: "/request-password-reset" },
  { method: "POST", path: "/reset-password" },
  // A provider sign-in (Keycloak through the generic OAuth plugin), only when one is configured.
  { method: "POST", path: PROVIDER_SIGN_IN_PATH.slice(SESSION_BASE_PATH.length), when: providerConfigured },
  { method: "GET", path: "/callback/:id", when: providerConfigured },
  // Two-factor (better-auth's plugin, two-factor.ts): enrol (password; answers the TOTP URI and the recovery codes),
  // confirm with the first code or complete a sign-in (verify-totp, its own route below), a recovery code at sign-in,
  // new recovery codes (password), disable (password). Each that replaces the session ends the cached lookups.
  { method: "POST", path: "/two-factor/enable", ends: true },
  { method: "POST", path: VERIFY_TOTP, ends: true },
  { method: "POST", path: "/two-factor/verify-backup-code" },
  { method: "POST", path: "/two-factor/generate-backup-codes" },
  { method: "POST", path: "/two-factor/disable", ends: true },
];

/** Allowed endpoints registered with a route of their own (above and in password-reset-routes.ts). */
const OWN_ROUTES = new Set(["/sign-in/username", VERIFY_TOTP, "/request-password-reset", "/reset-password"]);

/** A provider id in the callback path: better-auth sees exactly this path, never an encoded other one. */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The session profile's sign-in surface under /auth/*: our JSON routes (GET /auth/providers, GET /auth/sessions,
 * DELETE /auth/sessions/:id: contracts.ts, through the gateway's table) and the allow-listed better-auth endpoints
 * above. Any other /auth path answers 404 problem+json. better-auth checks the Origin of its own POSTs against the
 * trusted origins. The session token never appears in an answer body (only in the httpOnly cookie), so no script
 * can read it.
 */
export function registerSessionAuthRoutes(app: App, ctx: ControlContext): void {
  const session = ctx.session;
  if (!session) throw new Error("registerSessionAuthRoutes needs AUTH_MODE=session");
  registerControlRoutes(app, ctx, sessionRoutes);
  // The sign-in limit of the local profile, on the same database rows, so every control replica counts the same
  // failures: 5 per 15 minutes per address, 5 per username from one address, 50 per username from anywhere; 429
  // with Retry-After. A success clears that username's failures from that address.
  app.post(`${SESSION_BASE_PATH}/sign-in/username`, async (c) => {
    const request = canonical(c, "/sign-in/username");
    const body: unknown = await request
      .clone()
      .json()
      .catch(() => null);
    const name = body && typeof body === "object" && "username" in body ? body.username : undefined;
    // Without a username better-auth answers the validation error; nothing to count.
    if (typeof name !== "string" || !name.trim()) return withoutSessionToken(await session.auth.handler(request));
    const ip = clientIp(c, ctx.env.TRUST_PROXY_HOPS);
    const attempt = await ctx.limiter.begin({ username: normalizeUsername(name), ip }).catch(async (err: unknown) => {
      await recordAuditEvent(ctx.database.db, {
        kind: "sign_in.failed",
        actor: null,
        address: ip,
        details: { username: normalizeUsername(name), reason: "rate_limited", method: "password" },
      });
      throw err;
    });
    const response = await session.auth.handler(request);
    if (response.ok) await attempt.succeeded();
    await auditSignIn(ctx, response, normalizeUsername(name), ip);
    return withoutSessionToken(response);
  });
  // The TOTP check with replay refusal and the database count of wrong codes (two-factor.ts).
  app.post(`${SESSION_BASE_PATH}${VERIFY_TOTP}`, async (c) => {
    const before = await session.lookup.authenticate(c).catch(() => null);
    const account = await twoFactorAccount(ctx.database, c.req.header("cookie"), before?.userId ?? null);
    const response = await verifyTotpGuarded({
      database: ctx.database,
      now: ctx.clock(),
      request: canonical(c, VERIFY_TOTP),
      signedInUserId: before?.userId ?? null,
      pass: (request) => passThrough(session.auth, request),
    });
    if (before) session.lookup.forgetUser(before.userId);
    await auditTwoFactor(ctx.database.db, VERIFY_TOTP, account, response.ok, clientIp(c, ctx.env.TRUST_PROXY_HOPS));
    return response;
  });
  registerSessionPasswordReset(app, ctx);
  for (const allowed of ALLOWED_BETTER_AUTH) {
    if (OWN_ROUTES.has(allowed.path) || (allowed.when && !allowed.when(ctx))) continue;
    app.on(allowed.method, `${SESSION_BASE_PATH}${allowed.path}`, async (c) => {
      const id = c.req.param("id");
      if (id !== undefined && !PROVIDER_ID.test(id)) throw notFound();
      const path = id === undefined ? allowed.path : allowed.path.replace(":id", id);
      const twoFactor = path.startsWith("/two-factor/");
      const before = allowed.ends || twoFactor ? await session.lookup.authenticate(c).catch(() => null) : null;
      const account = twoFactor
        ? await twoFactorAccount(ctx.database, c.req.header("cookie"), before?.userId ?? null)
        : null;
      const response = await passThrough(session.auth, canonical(c, path));
      await auditTwoFactor(ctx.database.db, path, account, response.ok, clientIp(c, ctx.env.TRUST_PROXY_HOPS));
      if (before) session.lookup.forgetUser(before.userId);
      if (before && response.ok && allowed.path === "/change-password") {
        await recordAuditEvent(ctx.database.db, {
          kind: "password.changed",
          actor: subjectOf(before),
          target: subjectOf(before),
          address: clientIp(c, ctx.env.TRUST_PROXY_HOPS),
        });
      }
      return response;
    });
  }
  app.all(`${SESSION_BASE_PATH}/*`, () => {
    throw notFound();
  });
}

/** The audit event of a username sign-in: who succeeded, or which account (if any) failed and why. */
async function auditSignIn(ctx: ControlContext, response: Response, username: string, address: string) {
  const user = await findUserByUsername(ctx.database.db, username);
  const subject = user && { id: user.id, name: user.username };
  if (response.ok && subject) {
    await recordAuditEvent(ctx.database.db, {
      kind: "sign_in.succeeded",
      actor: subject,
      target: subject,
      address,
      details: { method: "password" },
    });
    return;
  }
  const reason = response.status === 403 && user?.banned ? "disabled" : "invalid_credentials";
  await recordAuditEvent(ctx.database.db, {
    kind: "sign_in.failed",
    actor: null,
    target: subject,
    address,
    details: { username, reason, method: "password" },
  });
}

const notFound = () => new AppError("NOT_FOUND", "No such route");

/** The request as better-auth must see it: the allowed path exactly, the caller's query, method, headers and body. */
function canonical(c: Context, path: string): Request {
  const url = new URL(c.req.url);
  return new Request(new URL(`${SESSION_BASE_PATH}${path}${url.search}`, url.origin), c.req.raw);
}

async function passThrough(auth: SessionAuth, request: Request): Promise<Response> {
  return withoutSessionToken(await auth.handler(request));
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
