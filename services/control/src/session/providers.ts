import { type Database, users } from "@ams/db";
import { eq } from "drizzle-orm";
import { normalizeUsername } from "../auth/users.ts";
import type { ControlEnv } from "../env.ts";

export type ProviderInfo = { id: string; name: string; sign_in_url: string };

const KEYCLOAK = { id: "keycloak", name: "Keycloak" };

/** The realm's address when the Keycloak-compatible provider is configured, else null. */
function keycloakRealm(env: ControlEnv): string | null {
  if (!env.IDP_SSO_ENABLED || !env.IDP_URL || !env.IDP_REALM || !env.IDP_CLIENT_ID_WEB) return null;
  return `${env.IDP_URL.replace(/\/$/, "")}/realms/${encodeURIComponent(env.IDP_REALM)}`;
}

/** Is a provider sign-in offered (the sign-in page shows its button)? */
export const providerSignInEnabled = (env: ControlEnv): boolean => keycloakRealm(env) !== null;

/** Where a browser starts a provider sign-in: better-auth's social sign-in, `{provider, callbackURL}` in the body. */
export const PROVIDER_SIGN_IN_PATH = "/auth/sign-in/social";

/**
 * The Keycloak-compatible provider of the session profile, through better-auth's generic OAuth plugin: configured
 * by the same IDP_* variables as the local profile's SSO (IDP_SSO_ENABLED, IDP_URL, IDP_REALM, IDP_CLIENT_ID_WEB,
 * IDP_CLIENT_SECRET_WEB); discovery from the realm's OpenID configuration, PKCE on, the ID token verified against the
 * realm's keys. The provider redirects back to `<PUBLIC_URL>/auth/callback/keycloak` (register it with the client).
 * A first sign-in creates the account (username from `preferred_username`), or links it to the account with the
 * same verified e-mail address.
 */
export function keycloakProvider(env: ControlEnv, database: Database) {
  const realm = keycloakRealm(env);
  if (!realm || !env.IDP_CLIENT_ID_WEB) return null;
  return {
    providerId: KEYCLOAK.id,
    name: KEYCLOAK.name,
    discoveryUrl: `${realm}/.well-known/openid-configuration`,
    clientId: env.IDP_CLIENT_ID_WEB,
    clientSecret: env.IDP_CLIENT_SECRET_WEB,
    scopes: ["openid", "profile", "email"],
    pkce: true,
    requireIdTokenVerification: true,
    mapProfileToUser: async (profile: Record<string, unknown>) => ({ username: await freeUsername(database, profile) }),
  };
}

/**
 * The username of an account a provider sign-in creates: the provider's `preferred_username` (else the e-mail's
 * local part), with the subject's first characters appended when a local account already has that name.
 */
async function freeUsername(database: Database, profile: Record<string, unknown>): Promise<string> {
  const text = (v: unknown) => (typeof v === "string" && v.trim() ? v : undefined);
  const wanted = normalizeUsername(
    text(profile.preferred_username) ?? text(profile.email)?.split("@")[0] ?? String(profile.sub),
  );
  const [taken] = await database.db.select({ id: users.id }).from(users).where(eq(users.username, wanted));
  return taken
    ? `${wanted}-${String(profile.sub)
        .replace(/[^a-z0-9]/gi, "")
        .slice(0, 8)
        .toLowerCase()}`
    : wanted;
}

/** GET /auth/providers: the enabled OAuth/OIDC providers and where a browser starts each sign-in. */
export function listProviders(env: ControlEnv): ProviderInfo[] {
  return keycloakRealm(env) ? [{ ...KEYCLOAK, sign_in_url: PROVIDER_SIGN_IN_PATH }] : [];
}
