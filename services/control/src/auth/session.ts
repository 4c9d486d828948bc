import { randomUUID } from "node:crypto";
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { ControlContext } from "../context.ts";
import { ACCESS_TOKEN_SECONDS } from "./access-token.ts";
import { ACCESS_COOKIE, isHttps, setSessionCookies } from "./cookies.ts";
import type { Identity } from "./principal.ts";
import { issueRefreshToken } from "./refresh-tokens.ts";

/** Starts a local session (a new refresh-token family) and sets the three cookies. */
export async function startLocalSession(c: Context, ctx: ControlContext, identity: Identity): Promise<void> {
  const refreshToken = await issueRefreshToken(ctx.database.db, identity.userId, randomUUID(), ctx.clock());
  const accessToken = await ctx.accessTokens.sign(identity);
  setSessionCookies(c, { accessToken, refreshToken, provider: "local" });
}

/** Replaces only the access token (its claims changed, the session did not). */
export async function renewAccessCookie(c: Context, ctx: ControlContext, identity: Identity): Promise<void> {
  const accessToken = await ctx.accessTokens.sign(identity);
  setCookie(c, ACCESS_COOKIE, accessToken, {
    httpOnly: true,
    sameSite: "Lax",
    secure: isHttps(c),
    path: "/",
    maxAge: ACCESS_TOKEN_SECONDS,
  });
}
