import { verifyHs256 } from "@ams/shared";
import { SignJWT } from "jose";
import { type IdentityClaims, identityFromClaims, PLATFORM_ADMIN_ROLE } from "./claims.ts";
import type { Identity } from "./principal.ts";

export const LOCAL_ISSUER = "svc-local";
export const ACCESS_TOKEN_SECONDS = 15 * 60;

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
    async verify(token) {
      const payload = verifyHs256(token, rawKey, {
        issuer: LOCAL_ISSUER,
        now: Math.floor(clock().getTime() / 1000),
        leewaySeconds: 0,
      });
      if (!payload || typeof payload.sub !== "string") return null;
      return identityFromClaims(payload as IdentityClaims, "local");
    },
  };
}
