import type { Context } from "hono";
import { readRefreshCookie } from "../auth/cookies.ts";
import { refreshFailed } from "../auth/local-session-provider.ts";
import type { SessionProvider } from "../context.ts";
import { clearIdTokenCookie, clearOidcSessionCookies, readIdTokenCookie, setOidcSessionCookies } from "./cookies.ts";
import { InvalidProviderToken, type SsoRuntime } from "./runtime.ts";
import { GrantRefused } from "./token-endpoint.ts";

/**
 * Refresh and logout for sessions that came through the provider (auth_provider=oidc). Refresh exchanges the
 * refresh token at the token endpoint: 204 with new cookies, or 401 with every session cookie cleared when the
 * provider refuses it. Logout clears the cookies and sends the browser through the provider's end-session
 * endpoint (ending the provider's SSO session too) back to /login.
 */
export function createOidcSessionProvider(sso: SsoRuntime): SessionProvider {
  return {
    async refresh(c) {
      const refreshToken = readRefreshCookie(c);
      if (!refreshToken) return failed(c);
      try {
        const { tokens } = await sso.grant({ grant_type: "refresh_token", refresh_token: refreshToken });
        setOidcSessionCookies(c, tokens);
        return c.body(null, 204);
      } catch (err) {
        if (err instanceof GrantRefused || err instanceof InvalidProviderToken) return failed(c);
        // A provider outage (503) is not the end of the session: the cookies stay and the page may retry.
        throw err;
      }
    },
    async logout(c) {
      const idToken = readIdTokenCookie(c);
      clearOidcSessionCookies(c);
      let endSession: string | undefined;
      try {
        endSession = (await sso.discovery()).end_session_endpoint;
      } catch {
        endSession = undefined;
      }
      if (!endSession) return c.redirect("/login", 302);
      const url = new URL(endSession);
      url.searchParams.set("client_id", sso.config.clientId);
      url.searchParams.set("post_logout_redirect_uri", sso.config.postLogoutRedirectUri);
      if (idToken) url.searchParams.set("id_token_hint", idToken);
      return c.redirect(url.toString(), 302);
    },
  };
}

/** 401 with access, refresh, provider and ID token cookies cleared. */
function failed(c: Context): Response {
  clearIdTokenCookie(c);
  return refreshFailed(c, "The sign-in session has ended; sign in again");
}
