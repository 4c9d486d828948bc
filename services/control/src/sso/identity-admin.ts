/** An account at the identity provider, as its admin API describes it. */
export type IdpUser = {
  id: string;
  username: string;
  email: string | null;
  emailVerified: boolean;
  enabled: boolean;
  firstName?: string;
  lastName?: string;
};

/** The provider's required actions an onboarding e-mail asks the new account to complete. */
export type RequiredAction = "UPDATE_PROFILE" | "UPDATE_PASSWORD" | "VERIFY_EMAIL";
export const ONBOARDING_ACTIONS: RequiredAction[] = ["UPDATE_PROFILE", "UPDATE_PASSWORD", "VERIFY_EMAIL"];

/**
 * The few operations control needs from the identity provider's admin side, behind one small interface: "add
 * member by username" looks accounts up, an e-mail invitation provisions a missing identity. One implementation
 * speaks Keycloak's admin REST API (keycloak-admin.ts).
 */
export type IdentityAdmin = {
  findByUsername(username: string): Promise<IdpUser | null>;
  findByEmail(email: string): Promise<IdpUser | null>;
  /** An enabled account without credentials. */
  createUser(input: { username: string; email: string; firstName?: string; lastName?: string }): Promise<IdpUser>;
  /** Asks the provider to e-mail the account a link to complete `actions`; throws when that e-mail fails. */
  executeActionsEmail(
    userId: string,
    actions: RequiredAction[],
    opts?: { lifespanSeconds?: number; redirectUri?: string; clientId?: string },
  ): Promise<void>;
  deleteUser(userId: string): Promise<void>;
};

export function displayName(user: IdpUser): string {
  const full = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return full || user.username;
}
