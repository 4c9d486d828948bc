import type { ControlEnv } from "../env.ts";

export type ProviderInfo = { id: string; name: string; sign_in_url: string };

/**
 * The Keycloak-compatible provider of the session profile, through better-auth's generic OAuth plugin: configured
 * by the same IDP_* variables as the local profile's SSO (IDP_SSO_ENABLED, IDP_URL, IDP_REALM, IDP_CLIENT_ID_WEB,
 * IDP_CLIENT_SECRET_WEB); discovery from the realm's OpenID configuration, PKCE on.
 */
export function keycloakProvider(env: ControlEnv) {
  if (!env.IDP_SSO_ENABLED || !env.IDP_URL || !env.IDP_REALM || !env.IDP_CLIENT_ID_WEB) return null;
  const realm = `${env.IDP_URL.replace(/\/$/, "")}/realms/${encodeURIComponent(env.IDP_REALM)}`;
  return {
    providerId: "keycloak",
    name: "Keycloak",
    discoveryUrl: `${realm}/.well-known/openid-configuration`,
    clientId: env.IDP_CLIENT_ID_WEB,
    clientSecret: env.IDP_CLIENT_SECRET_WEB,
    scopes: ["openid", "profile", "email"],
    pkce: true,
  };
}

/** GET /auth/providers: the enabled OAuth/OIDC providers and where a browser starts each sign-in. */
export function listProviders(env: ControlEnv): ProviderInfo[] {
  const keycloak = keycloakProvider(env);
  return keycloak ? [{ id: keycloak.providerId, name: keycloak.name, sign_in_url: "/auth/sign-in/oauth2" }] : [];
}
