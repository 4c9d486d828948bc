import type { JWTPayload } from "jose";
import type { Identity } from "./principal.ts";

export const PLATFORM_ADMIN_ROLE = "platform_admin";

/** The identity-provider claim shape shared by local access tokens and OIDC tokens. */
export type IdentityClaims = JWTPayload & {
  preferred_username?: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  realm_access?: { roles?: string[] };
  must_change_password?: boolean;
  /** Local access tokens: the issue instant in epoch microseconds (instants.ts; iat has whole seconds only). */
  iat_us?: number;
};

/** Maps verified claims to an Identity: id from sub, username from preferred_username, Admin from the realm role. */
export function identityFromClaims(claims: IdentityClaims, provider: Identity["provider"]): Identity | null {
  if (typeof claims.sub !== "string" || claims.sub === "") return null;
  if (typeof claims.preferred_username !== "string" || claims.preferred_username === "") return null;
  const roles = Array.isArray(claims.realm_access?.roles) ? claims.realm_access.roles : [];
  return {
    userId: claims.sub,
    username: claims.preferred_username,
    name: typeof claims.name === "string" ? claims.name : claims.preferred_username,
    email: typeof claims.email === "string" ? claims.email : null,
    emailVerified: claims.email_verified === true,
    platformAdmin: roles.includes(PLATFORM_ADMIN_ROLE),
    mustChangePassword: claims.must_change_password === true,
    provider,
  };
}
