import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ACCESS_COOKIE, clearSessionCookies, isHttps, PROVIDER_COOKIE, REFRESH_COOKIE } from "../auth/cookies.ts";
import { REFRESH_TOKEN_SECONDS } from "../auth/refresh-tokens.ts";
import type { TokenResponse } from "./token-endpoint.ts";

export const OIDC_PROVIDER = "oidc";
export const ID_TOKEN_COOKIE = "id_token";
export const PKCE_COOKIE = "pkce_verifier";
export const STATE_COOKIE = "oidc_state";
export const REDIRECT_COOKIE = "auth_redirect";
/** PKCE, state and redirect live 5 minutes: one sign-in round trip. */
export const FLOW_COOKIE_SECONDS = 5 * 60;
/** Same path as the local refresh cookie (auth/cookies.ts): these cookies only travel to /api/auth/*. */
const AUTH_PATH = "/api/auth";

const base = (c: Context) => ({ httpOnly: true, sameSite: "Lax", secure: isHttps(c) }) as const;

export type FlowCookies = { verifier?: string; state?: string; redirect?: string };

export function setFlowCookies(c: Context, flow: Required<FlowCookies>): void {
  const opts = { ...base(c), path: AUTH_PATH, maxAge: FLOW_COOKIE_SECONDS };
  setCookie(c, PKCE_COOKIE, flow.verifier, opts);
  setCookie(c, STATE_COOKIE, flow.state, opts);
  setCookie(c, REDIRECT_COOKIE, flow.redirect, opts);
}

/** Reads and clears the flow cookies: each is good for one callback only. */
export function takeFlowCookies(c: Context): FlowCookies {
  const flow = {
    verifier: getCookie(c, PKCE_COOKIE) || undefined,
    state: getCookie(c, STATE_COOKIE) || undefined,
    redirect: getCookie(c, REDIRECT_COOKIE) || undefined,
  };
  for (const name of [PKCE_COOKIE, STATE_COOKIE, REDIRECT_COOKIE])
    deleteCookie(c, name, { ...base(c), path: AUTH_PATH });
  return flow;
}

/**
 * The provider's tokens as cookies: access_token (max-age expires_in), refresh_token and id_token (max-age
 * refresh_expires_in, else 30 days) and auth_provider=oidc, all httpOnly and SameSite=Lax. The ID token is kept
 * for the end-session hint at logout; without a new one (a refresh may omit it) the old cookie stays.
 */
export function setOidcSessionCookies(c: Context, tokens: TokenResponse): void {
  const accessSeconds = positive(tokens.expires_in) ?? 300;
  const sessionSeconds = positive(tokens.refresh_expires_in) ?? REFRESH_TOKEN_SECONDS;
  const opts = base(c);
  setCookie(c, ACCESS_COOKIE, tokens.access_token, { ...opts, path: "/", maxAge: accessSeconds });
  if (tokens.refresh_token) {
    setCookie(c, REFRESH_COOKIE, tokens.refresh_token, { ...opts, path: AUTH_PATH, maxAge: sessionSeconds });
  }
  if (tokens.id_token) {
    setCookie(c, ID_TOKEN_COOKIE, tokens.id_token, { ...opts, path: AUTH_PATH, maxAge: sessionSeconds });
  }
  setCookie(c, PROVIDER_COOKIE, OIDC_PROVIDER, { ...opts, path: "/", maxAge: sessionSeconds });
}

export function clearIdTokenCookie(c: Context): void {
  deleteCookie(c, ID_TOKEN_COOKIE, { ...base(c), path: AUTH_PATH });
}

export function clearOidcSessionCookies(c: Context): void {
  clearSessionCookies(c);
  clearIdTokenCookie(c);
}

export const readIdTokenCookie = (c: Context) => getCookie(c, ID_TOKEN_COOKIE) || undefined;

const positive = (n: number | undefined) =>
  typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
