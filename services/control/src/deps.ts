import type { Database } from "@ams/db";
import type { Logger, ServiceTokens } from "@ams/shared";
import type { ServiceMetrics } from "@ams/shared/http";
import type { AccessState } from "./auth/access-state.ts";
import type { AccessTokenVerifier } from "./auth/access-token.ts";
import type { UserDirectory } from "./auth/directory.ts";
import type { HealthChecks, SessionProvider } from "./context.ts";
import type { ControlEnv } from "./env.ts";
import type { Upstream } from "./gateway/upstream.ts";
import type { Live } from "./live/live.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { IdentityAdmin } from "./sso/identity-admin.ts";
import type { SsoRuntime } from "./sso/runtime.ts";

export type ControlDeps = {
  database: Database;
  /** Signs the inter-service token of every forwarded request. */
  tokens: ServiceTokens;
  upstreams: { tenant: Upstream; mcp?: Upstream };
  env: ControlEnv;
  clock?: () => Date;
  health?: HealthChecks;
  /**
   * The per-user check every request makes (valid-after, disabled, role, signed-out ids); default: the database's,
   * remembered per replica (access-state.ts). The bench replaces it to measure requests without it.
   */
  accessState?: AccessState;
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
  /** Where unhandled errors and failed deliveries are logged (JSON lines); silent when absent. */
  log?: Logger;
  /** The built browser UI (apps/web/dist); without it control serves only /api, /mcp and /auth. */
  webDir?: string;
  /** Live collaboration (events, presence); default: this process's own, presences shared over NATS_URL when set. */
  live?: Live;
  /** Prometheus metrics of this process (served on METRICS_PORT); absent: not collected. */
  metrics?: ServiceMetrics;
};
