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
  };
}

/** How long an authorization code may wait for its token request. */
export const CODE_TTL_MS = 5 * 60 * 1000;
/** How long an access token an MCP client obtained stays valid (it is a personal API token with this expiry). */
export const OAUTH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
