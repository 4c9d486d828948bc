/** Where the OAuth endpoints live, from the service's public address (PUBLIC_URL). */
export function oauthEndpoints(publicUrl: string) {
  const issuer = publicUrl.replace(/\/+$/, "");
  return {
    issuer,
    /** The protected resource: the MCP endpoint as clients connect to it. */
    resource: `${issuer}/mcp/`,
    resourceMetadata: `${issuer}/.well-known/oauth-protected-resource/mcp/`,
    authorization: `${issuer}/oauth/authorize`,
    token: `${issuer}/oauth/token`,
    registration: `${issuer}/oauth/register`,
    /** The browser UI's consent page (apps/web/src/pages/oauth-consent.tsx). */
    consent: `${issuer}/oauth/consent`,
  };
}

/** How long an authorization request waits on the consent page (signing in included). */
export const REQUEST_TTL_MS = 15 * 60 * 1000;
/** How long an authorization code may wait for its token request. */
export const CODE_TTL_MS = 5 * 60 * 1000;
/** How long an access token stays valid (it is a personal API token with this expiry, renewed by refresh). */
export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000;
/** How long a refresh token stays valid unused: a client used at least this often never asks the user again. */
export const REFRESH_TOKEN_TTL_MS = 60 * 24 * 60 * 60 * 1000;
/** How long a used refresh token is remembered, so that presenting it again revokes its grant. */
export const USED_REFRESH_TOKEN_MEMORY_MS = 7 * 24 * 60 * 60 * 1000;
/** A registration that obtained no token within this time is deleted. */
export const UNUSED_CLIENT_TTL_MS = 24 * 60 * 60 * 1000;
/** Dynamic registrations allowed per client address in REGISTRATION_WINDOW_MS. */
export const REGISTRATIONS_PER_WINDOW = 20;
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;
/**
 * Authorization requests stored per client address in AUTHORIZATION_REQUEST_WINDOW_MS: each waits for the user for
 * REQUEST_TTL_MS, so an address holds at most this many at once.
 */
export const AUTHORIZATION_REQUESTS_PER_WINDOW = 60;
export const AUTHORIZATION_REQUEST_WINDOW_MS = REQUEST_TTL_MS;
