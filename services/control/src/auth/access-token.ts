import { type JwtPayload, verifyHs256 } from "@ams/shared";
import { SignJWT } from "jose";
import { type IdentityClaims, identityFromClaims, PLATFORM_ADMIN_ROLE } from "./claims.ts";
import type { Identity } from "./principal.ts";

export const LOCAL_ISSUER = "svc-local";
export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** Verified access tokens remembered (all forgotten when full): more than the users one replica serves at once. */
const VERIFIED_KEPT = 10_000;

/** Verifies a bearer/cookie access token; null when it is not one this verifier accepts. */
export type AccessTokenVerifier = (token: string) => Promise<Identity | null>;

export type LocalAccessTokens = {
  sign(identity: Identity): Promise<string>;
  verify: AccessTokenVerifier;
};

/** The local sign-in's HS256 access JWT, 15 minutes, issuer svc-local, with the identity-provider claim shape. */
export function createLocalAccessTokens(secret: string, clock: () => Date): LocalAccessTokens {
  const key = new TextEncoder().encode(secret);
  const rawKey = Buffer.from(key);
  const verified = new Map<string, JwtPayload>();
  return {
    async sign(identity) {
      const claims: IdentityClaims = {
        preferred_username: identity.username,
        name: identity.name,
        email_verified: identity.emailVerified,
        realm_access: { roles: identity.platformAdmin ? [PLATFORM_ADMIN_ROLE] : [] },
      };
      if (identity.email) claims.email = identity.email;
      if (identity.mustChangePassword) claims.must_change_password = true;
      const now = Math.floor(clock().getTime() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(identity.userId)
        .setIssuer(LOCAL_ISSUER)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
        .sign(key);
    },
    // Verified with node:crypto (synchronous HMAC), not WebCrypto: every gateway request with a session does this.
    // A token once verified is remembered until it expires (at most VERIFIED_KEPT), so a signed-in user's following
    // requests skip the HMAC and the JSON parsing; expiry is checked on every use, revocation by the caller.
    async verify(token) {
      const now = Math.floor(clock().getTime() / 1000);
      let payload = verified.get(token);
      if (!payload || (payload.exp as number) < now) {
        verified.delete(token);
        payload = verifyHs256(token, rawKey, { issuer: LOCAL_ISSUER, now, leewaySeconds: 0 }) ?? undefined;
        if (!payload || typeof payload.sub !== "string") return null;
        if (verified.size >= VERIFIED_KEPT) verified.clear();
        verified.set(token, payload);
      }
      return identityFromClaims(payload as IdentityClaims, "local");
    },
  };
}
