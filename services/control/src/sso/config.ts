import type { ControlEnv } from "../env.ts";

/** The external identity provider as configured: one Keycloak-compatible realm, a web client, an admin client. */
export type SsoConfig = {
  /** {IDP_URL}/realms/{IDP_REALM}: the only issuer whose tokens are accepted. */
  issuer: string;
  /** {IDP_URL}/admin/realms/{IDP_REALM}: the realm's admin REST API. */
  adminBaseUrl: string;
  clientId: string;
  /** Audiences beside clientId that make an access token ours (IDP_ACCESS_TOKEN_AUDIENCE, comma-separated). */
  accessTokenAudiences: string[];
  /** Absent for a public web client (PKCE alone then protects the code exchange). */
  clientSecret?: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  publicUrl: string;
  admin?: { clientId: string; clientSecret: string };
  /** Realm features (on only in the shared, pooled realm); e-mail invitations need self-registration. */
  selfRegistration: boolean;
  verifyEmail: boolean;
  resetPassword: boolean;
};

export const trimSlashes = (url: string) => url.replace(/\/+$/, "");

/** Null when SSO is off; throws one Error naming every missing variable when it is on but incomplete. */
export function ssoConfigFromEnv(env: ControlEnv): SsoConfig | null {
  if (!env.IDP_SSO_ENABLED) return null;
  const { IDP_URL: url, IDP_REALM: realmName, IDP_CLIENT_ID_WEB: clientId } = env;
  const problems: string[] = [];
  if (!url) problems.push("IDP_URL is required when IDP_SSO_ENABLED is true");
  if (!realmName) problems.push("IDP_REALM is required when IDP_SSO_ENABLED is true");
  if (!clientId) problems.push("IDP_CLIENT_ID_WEB is required when IDP_SSO_ENABLED is true");
  if (Boolean(env.IDP_ADMIN_CLIENT_ID) !== Boolean(env.IDP_ADMIN_CLIENT_SECRET)) {
    problems.push("IDP_ADMIN_CLIENT_ID and IDP_ADMIN_CLIENT_SECRET go together");
  }
  if (problems.length > 0 || !url || !realmName || !clientId) {
    throw new Error(`Invalid identity provider configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
  const idpUrl = trimSlashes(url);
  const realm = encodeURIComponent(realmName);
  const publicUrl = trimSlashes(env.PUBLIC_URL);
  return {
    issuer: `${idpUrl}/realms/${realm}`,
    adminBaseUrl: `${idpUrl}/admin/realms/${realm}`,
    clientId,
    accessTokenAudiences: (env.IDP_ACCESS_TOKEN_AUDIENCE ?? "")
      .split(",")
      .map((a) => a.trim())
      .filter(Boolean),
    clientSecret: env.IDP_CLIENT_SECRET_WEB,
    redirectUri: `${publicUrl}/api/auth/callback`,
    postLogoutRedirectUri: `${publicUrl}/login`,
    publicUrl,
    admin:
      env.IDP_ADMIN_CLIENT_ID && env.IDP_ADMIN_CLIENT_SECRET
        ? { clientId: env.IDP_ADMIN_CLIENT_ID, clientSecret: env.IDP_ADMIN_CLIENT_SECRET }
        : undefined,
    selfRegistration: env.IDP_SELF_REGISTRATION,
    verifyEmail: env.IDP_VERIFY_EMAIL,
    resetPassword: env.IDP_RESET_PASSWORD,
  };
}
