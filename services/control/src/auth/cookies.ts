import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ACCESS_TOKEN_SECONDS } from "./access-token.ts";
import { REFRESH_TOKEN_SECONDS } from "./refresh-tokens.ts";

export const ACCESS_COOKIE = "access_token";
export const REFRESH_COOKIE = "refresh_token";
export const PROVIDER_COOKIE = "auth_provider";
/** The refresh token only travels to the routes that use it. */
const REFRESH_PATH = "/api/auth";

/**
 * Secure when the site's public address (PUBLIC_URL) is https, whatever scheme the hop from a TLS-terminating proxy
 * used; otherwise when the browser reached us over https, directly or as the proxy says.
 */
export function isHttps(c: Context): boolean {
  if ((c.var as { publicHttps?: boolean }).publicHttps) return true;
  if (new URL(c.req.url).protocol === "https:") return true;
  const forwarded = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}

export type SessionTokens = { accessToken: string; refreshToken: string; provider: string };

export function setSessionCookies(c: Context, tokens: SessionTokens): void {
  const base = { httpOnly: true, sameSite: "Lax", secure: isHttps(c) } as const;
  setCookie(c, ACCESS_COOKIE, tokens.accessToken, { ...base, path: "/", maxAge: ACCESS_TOKEN_SECONDS });
  setCookie(c, REFRESH_COOKIE, tokens.refreshToken, { ...base, path: REFRESH_PATH, maxAge: REFRESH_TOKEN_SECONDS });
  setCookie(c, PROVIDER_COOKIE, tokens.provider, { ...base, path: "/", maxAge: REFRESH_TOKEN_SECONDS });
}

export function clearSessionCookies(c: Context): void {
  const base = { httpOnly: true, sameSite: "Lax", secure: isHttps(c) } as const;
  deleteCookie(c, ACCESS_COOKIE, { ...base, path: "/" });
  deleteCookie(c, REFRESH_COOKIE, { ...base, path: REFRESH_PATH });
  deleteCookie(c, PROVIDER_COOKIE, { ...base, path: "/" });
}

export function readRefreshCookie(c: Context): string | undefined {
  return getCookie(c, REFRESH_COOKIE) || undefined;
}

export function readAccessCookie(c: Context): string | undefined {
  return getCookie(c, ACCESS_COOKIE) || undefined;
}

export function readProviderCookie(c: Context): string | undefined {
  return getCookie(c, PROVIDER_COOKIE) || undefined;
}
