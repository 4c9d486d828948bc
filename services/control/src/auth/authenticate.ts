import type { Database } from "@ams/db";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { AccessTokenVerifier } from "./access-token.ts";
import { API_TOKEN_PREFIX } from "./api-token-format.ts";
import { lookupApiToken } from "./api-token-lookup.ts";
import { ACCESS_COOKIE } from "./cookies.ts";
import type { Principal } from "./principal.ts";
import type { AccessTokenRevocations } from "./revocations.ts";

export type Authenticator = (c: Context) => Promise<Principal | null>;

/**
 * Reads the credentials of a request: `Authorization: Bearer` (an access JWT or a personal API token) or else the
 * access_token cookie (JWT only). Verifiers are tried in order (local first; the OIDC one checks its issuer).
 */
export function createAuthenticator(opts: {
  database: Database;
  verifiers: AccessTokenVerifier[];
  clock: () => Date;
  revocations: AccessTokenRevocations;
}): Authenticator {
  return async (c) => {
    const header = c.req.header("authorization");
    let token: string | undefined;
    if (header !== undefined) {
      const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
      if (!match) return null;
      token = match[1];
    } else {
      token = getCookie(c, ACCESS_COOKIE);
      if (token?.startsWith(API_TOKEN_PREFIX)) return null;
    }
    if (!token) return null;
    if (token.startsWith(API_TOKEN_PREFIX)) return lookupApiToken(opts.database, token, opts.clock());
    for (const verify of opts.verifiers) {
      const identity = await verify(token);
      if (identity) return (await opts.revocations.isRevoked(token)) ? null : { ...identity, apiToken: null };
    }
    return null;
  };
}
