import type { Database } from "@ams/db";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { checkOrigin } from "../http/csrf.ts";
import type { AccessState } from "./access-state.ts";
import type { AccessTokenVerifier, LocalAccessTokens } from "./access-token.ts";
import { API_TOKEN_PREFIX } from "./api-token-format.ts";
import { cachedApiTokenLookup } from "./api-token-lookup.ts";
import { ACCESS_COOKIE } from "./cookies.ts";
import { localTokenStands } from "./local-token-check.ts";
import type { Principal } from "./principal.ts";
import type { AccessTokenRevocations } from "./revocations.ts";

export type Authenticator = (c: Context) => Promise<Principal | null>;

/**
 * Reads the credentials of a request: `Authorization: Bearer` (an access JWT or a personal API token) or else the
 * access_token cookie (JWT only). A local access token must still stand (local-token-check.ts: signed out,
 * valid-after, disabled, lost platform_admin); the further verifiers (the identity provider's, which checks its
 * issuer) are tried after it, their tokens checked against sign-outs. A write authenticated by the cookie must come
 * from a trusted origin (CSRF, http/csrf.ts): 403 otherwise.
 */
export function createAuthenticator(opts: {
  database: Database;
  local: LocalAccessTokens;
  verifiers: AccessTokenVerifier[];
  clock: () => Date;
  state: AccessState;
  revocations: AccessTokenRevocations;
  /** Origins besides the request's own whose cookie-authenticated writes are accepted (PUBLIC_URL's, TRUSTED_ORIGINS). */
  trustedOrigins: string[];
}): Authenticator {
  const lookupApiToken = cachedApiTokenLookup(opts.database);
  const identify = async (token: string): Promise<Principal | null> => {
    if (token.startsWith(API_TOKEN_PREFIX)) return lookupApiToken(token, opts.clock());
    const local = await opts.local.read(token);
    if (local) {
      return (await localTokenStands(opts.state, local)) ? { ...local.identity, apiToken: null } : null;
    }
    for (const verify of opts.verifiers) {
      const identity = await verify(token);
      if (identity) return (await opts.revocations.isRevoked(token)) ? null : { ...identity, apiToken: null };
    }
    return null;
  };
  return async (c) => {
    const header = c.req.header("authorization");
    if (header !== undefined) {
      const token = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1];
      return token ? identify(token) : null;
    }
    const token = getCookie(c, ACCESS_COOKIE);
    if (!token || token.startsWith(API_TOKEN_PREFIX)) return null;
    const principal = await identify(token);
    if (principal) checkOrigin(c, opts.trustedOrigins);
    return principal;
  };
}
