import { createRemoteJWKSet, decodeJwt, type JWTVerifyGetKey, jwtVerify } from "jose";
import type { AccessTokenVerifier } from "../auth/access-token.ts";
import { type IdentityClaims, identityFromClaims } from "../auth/claims.ts";
import type { ProviderMetadata } from "./discovery.ts";

/** Only the provider's asymmetric keys can sign: an HS256 token "signed" with a public key is refused. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

/** Keycloak marks its token kinds in `typ`; an ID or refresh token is never accepted as an access token. */
const NOT_ACCESS = new Set(["ID", "Refresh", "Logout", "Offline"]);

export type OidcVerifier = {
  /** For the gateway: a verified access token of our realm as an Identity, else null. */
  verifyAccessToken: AccessTokenVerifier;
  /** The verified claims of an access token (throws when invalid). */
  accessClaims(token: string): Promise<IdentityClaims>;
  /** The verified claims of an ID token issued to `clientId` (throws when invalid). */
  idClaims(token: string, clientId: string): Promise<IdentityClaims>;
};

/**
 * Verifies tokens against the realm's JWKS (fetched via jose's remote key set, cached and refreshed on an unknown
 * key id). The issuer must equal {IDP_URL}/realms/{IDP_REALM} exactly: a token from another realm fails, even one
 * signed with a key the realms share. Tokens of other issuers are skipped before any network access.
 */
export function createOidcVerifier(opts: {
  issuer: string;
  discovery: () => Promise<ProviderMetadata>;
  clock: () => Date;
  /** Our client at the provider: an access token must be issued to it (azp) or name it in `aud`. */
  clientId: string;
  /** Further audiences that make an access token ours (IDP_ACCESS_TOKEN_AUDIENCE), for providers that set one. */
  audiences?: string[];
}): OidcVerifier {
  const ours = new Set([opts.clientId, ...(opts.audiences ?? [])]);
  let keys: JWTVerifyGetKey | null = null;
  const keySet = async (): Promise<JWTVerifyGetKey> => {
    if (keys) return keys;
    const meta = await opts.discovery();
    keys = createRemoteJWKSet(new URL(meta.jwks_uri), { timeoutDuration: 10_000 });
    return keys;
  };
  const verify = async (token: string, audience?: string): Promise<IdentityClaims> => {
    const { payload } = await jwtVerify<IdentityClaims>(token, await keySet(), {
      issuer: opts.issuer,
      audience,
      algorithms: ALGORITHMS,
      currentDate: opts.clock(),
      requiredClaims: ["sub", "exp"],
    });
    return payload;
  };
  const accessClaims = async (token: string) => {
    const claims = await verify(token);
    if (typeof claims.typ === "string" && NOT_ACCESS.has(claims.typ)) throw new Error(`not an access token`);
    // A token the realm issued to another of its clients (another application) is not a key to this one.
    const aud = claims.aud === undefined ? [] : Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (claims.azp !== opts.clientId && !aud.some((a) => ours.has(a)))
      throw new Error("the access token was issued to another client (neither azp nor aud names ours)");
    return claims;
  };
  return {
    accessClaims,
    idClaims: (token, clientId) => verify(token, clientId),
    async verifyAccessToken(token) {
      try {
        if (decodeJwt(token).iss !== opts.issuer) return null;
        return identityFromClaims(await accessClaims(token), "oidc");
      } catch {
        return null;
      }
    },
  };
}
