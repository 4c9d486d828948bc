import type { Database } from "@ams/db";
import type { HealthProbe, ServiceTokens } from "@ams/shared";
import type { AccessTokenVerifier } from "./auth/access-token.ts";
import type { UserDirectory } from "./auth/directory.ts";
import type { SessionProvider } from "./auth/session-providers.ts";
import type { ControlEnv } from "./env.ts";
import type { Upstream } from "./gateway/upstream.ts";
import type { Logger } from "./http/problem.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { IdentityAdmin } from "./sso/identity-admin.ts";
import type { SsoRuntime } from "./sso/runtime.ts";

/** Probes for /api/health; an absent one reports "not configured". The database is always probed. */
export type HealthChecks = {
  queue?: HealthProbe;
  graph?: HealthProbe;
};

export type ControlDeps = {
  database: Database;
  /** Signs the inter-service token of every forwarded request. */
  tokens: ServiceTokens;
  upstreams: { tenant: Upstream; mcp?: Upstream };
  env: ControlEnv;
  clock?: () => Date;
  health?: HealthChecks;
  /** Further access-token verifiers after the local one (the OIDC provider's, when SSO is on). */
  accessTokenVerifiers?: AccessTokenVerifier[];
  /** Where "add member by username" finds accounts; defaults to the local users table. */
  directory?: UserDirectory;
  /** Refresh/logout per auth_provider cookie value, besides the built-in "local" (e.g. "oidc"). */
  sessionProviders?: Record<string, SessionProvider>;
  /** The OIDC browser sign-in (IDP_SSO_ENABLED); see sso/index.ts createIdentityProviderDeps. */
  sso?: SsoRuntime;
  /** The identity provider's admin operations: invitations provision missing identities through it. */
  identityAdmin?: IdentityAdmin;
  /** Outgoing e-mail; defaults to SMTP_URL (or a mailer that always fails when it is not set). */
  mailer?: Mailer;
  log?: Logger;
};
