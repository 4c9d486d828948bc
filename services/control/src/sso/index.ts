import type { Database } from "@ams/db";
import type { ControlDeps } from "../deps.ts";
import type { ControlEnv } from "../env.ts";
import { ssoConfigFromEnv } from "./config.ts";
import { OIDC_PROVIDER } from "./cookies.ts";
import { createIdpDirectory } from "./directory.ts";
import { createSsoRuntime } from "./runtime.ts";
import { createOidcSessionProvider } from "./session-provider.ts";

export type IdentityProviderDeps = Pick<
  ControlDeps,
  "sso" | "accessTokenVerifiers" | "sessionProviders" | "directory" | "identityAdmin"
>;

/**
 * The control deps for the external identity provider, from the environment: nothing when IDP_SSO_ENABLED is off;
 * otherwise the OIDC runtime (sign-in routes), its access-token verifier, the "oidc" refresh/logout provider and,
 * with the admin client configured, the provider-backed directory and the identity admin used by invitations.
 * Throws at start-up when SSO is on but its configuration is incomplete.
 */
export function createIdentityProviderDeps(opts: {
  env: ControlEnv;
  database: Database;
  clock?: () => Date;
}): IdentityProviderDeps {
  const config = ssoConfigFromEnv(opts.env);
  if (!config) return {};
  const clock = opts.clock ?? (() => new Date());
  const sso = createSsoRuntime({ config, database: opts.database, clock });
  return {
    sso,
    accessTokenVerifiers: [sso.verifier.verifyAccessToken],
    sessionProviders: { [OIDC_PROVIDER]: createOidcSessionProvider(sso) },
    ...(sso.admin ? { directory: createIdpDirectory(opts.database, sso.admin, clock), identityAdmin: sso.admin } : {}),
  };
}
