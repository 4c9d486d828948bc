import { randomUUID } from "node:crypto";
import { type JwtPayload, verifyHs256 } from "@ams/shared";
import { SignJWT } from "jose";
import { type IdentityClaims, identityFromClaims, PLATFORM_ADMIN_ROLE } from "./claims.ts";
import { nextInstantUs } from "./instants.ts";
import type { Identity } from "./principal.ts";

export const LOCAL_ISSUER = "svc-local";
export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** Verified access tokens remembered (all forgotten when full): more than the users one replica serves at once. */
const VERIFIED_KEPT = 10_000;

/** Verifies a bearer/cookie access token; null when it is not one this verifier accepts. */
export type AccessTokenVerifier = (token: string) => Promise<Identity | null>;

/** A verified local access token: who, its unique id and when it was issued (instants.ts, microseconds). */
export type LocalAccessToken = { identity: Identity; tokenId: string; issuedAtUs: number };

export type LocalAccessTokens = {
  sign(identity: Identity): Promise<string>;
  /** The token's claims when it is a valid local access token (signature, issuer, expiry); whether it still stands
   * (signed out, valid-after, disabled) is the caller's check (local-token-check.ts). */
  read(token: string): Promise<LocalAccessToken | null>;
};

/**
 * The local sign-in's HS256 access JWT, 15 minutes, issuer svc-local, with the identity-provider claim shape, a
 * unique `jti` (sign-out revokes that id, so a token issued in the same second is another token) and `iat_us`, the
 * issue instant in microseconds (instants.ts) that the user's valid-after is compared with.
 */
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
      const issuedAt = clock();
      claims.iat_us = nextInstantUs(issuedAt);
      const now = Math.floor(issuedAt.getTime() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(identity.userId)
        .setIssuer(LOCAL_ISSUER)
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
        .setJti(randomUUID())
        .sign(key);
    },
    // Verified with node:crypto (synchronous HMAC), not WebCrypto: every gateway request with a session does this.
    // A token once verified is remembered until it expires (at most VERIFIED_KEPT), so a signed-in user's following
    // requests skip the HMAC and the JSON parsing; expiry is checked on every use, revocation by the caller.
    async read(token) {
      const now = Math.floor(clock().getTime() / 1000);
      let payload = verified.get(token);
      if (!payload || (payload.exp as number) < now) {
        verified.delete(token);
        payload = verifyHs256(token, rawKey, { issuer: LOCAL_ISSUER, now, leewaySeconds: 0 }) ?? undefined;
        if (!payload || typeof payload.sub !== "string") return null;
        // Tokens signed before jti and iat_us existed cannot be signed out or compared: the browser refreshes.
        if (typeof payload.jti !== "string" || typeof payload.iat_us !== "number") return null;
        if (verified.size >= VERIFIED_KEPT) verified.clear();
        verified.set(token, payload);
      }
      const identity = identityFromClaims(payload as IdentityClaims, "local");
      return identity && { identity, tokenId: payload.jti as string, issuedAtUs: payload.iat_us as number };
    },
  };
}
