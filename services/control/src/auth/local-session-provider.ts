import { AppError, toProblem } from "@ams/shared";
import type { Context } from "hono";
import type { ControlContext, SessionProvider } from "../context.ts";
import { clearSessionCookies, readRefreshCookie, setSessionCookies } from "./cookies.ts";
import { revokeSessionOf, rotateRefreshToken } from "./refresh-tokens.ts";
import { findUserById, identityOf } from "./users.ts";

/** 401 with the session cookies cleared (the problem body is built here so the Set-Cookie headers survive). */
export function refreshFailed(c: Context, detail = "The session has ended; sign in again"): Response {
  clearSessionCookies(c);
  c.header("content-type", "application/problem+json");
  return c.body(JSON.stringify(toProblem(new AppError("UNAUTHENTICATED", detail))), 401);
}

export const localSessionProvider: SessionProvider = {
  async refresh(c, ctx) {
    const token = readRefreshCookie(c);
    if (!token) return refreshFailed(c);
    const result = await rotateRefreshToken(ctx.database.db, token, ctx.clock());
    if (result.kind === "reused") ctx.accessState.forgetUser(result.userId);
    if (result.kind !== "rotated") return refreshFailed(c);
    const user = await findUserById(ctx.database.db, result.userId);
    if (!user) return refreshFailed(c);
    const accessToken = await ctx.accessTokens.sign(identityOf(user));
    setSessionCookies(c, { accessToken, refreshToken: result.token, provider: "local" });
    return c.body(null, 204);
  },
  async logout(c, ctx) {
    const token = readRefreshCookie(c);
    if (token) await revokeSessionOf(ctx.database.db, token, ctx.clock());
    clearSessionCookies(c);
    return c.redirect("/login", 302);
  },
};

export function sessionProviderFor(ctx: ControlContext, name: string | undefined): SessionProvider {
  return (name && ctx.sessionProviders[name]) || localSessionProvider;
}
