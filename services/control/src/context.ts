import type { Database } from "@ams/db";
import type { HealthProbe, Logger, ServiceTokens } from "@ams/shared";
import type { Context } from "hono";
import type { AccessState } from "./auth/access-state.ts";
import type { LocalAccessTokens } from "./auth/access-token.ts";
import type { Authenticator } from "./auth/authenticate.ts";
import type { UserDirectory } from "./auth/directory.ts";
import type { LoginLimiter } from "./auth/login-limit.ts";
import type { AccessTokenRevocations } from "./auth/revocations.ts";
import type { ControlEnv } from "./env.ts";
import type { Upstream } from "./gateway/upstream.ts";
import type { InvitationServices } from "./invitations/services.ts";
import type { Live } from "./live/live.ts";
import type { BackgroundQueue } from "./mail/background.ts";
import type { SessionLookup } from "./session/authenticate.ts";
import type { SessionAuth } from "./session/better-auth.ts";

/** Probes for /api/health; an absent one reports "not configured". The database is always probed. */
export type HealthChecks = {
  queue?: HealthProbe;
  graph?: HealthProbe;
};

/**
 * Refresh and logout are dispatched by the auth_provider cookie. "local" is built in; the SSO flow registers
 * "oidc" (refresh through the provider's token endpoint, logout through its end-session endpoint).
 */
export type SessionProvider = {
  /** 204 with new cookies, or 401 with cleared cookies. */
  refresh(c: Context, ctx: ControlContext): Promise<Response>;
  /** Ends the session, clears the cookies and redirects (to /login, or via the provider's end-session). */
  logout(c: Context, ctx: ControlContext): Promise<Response>;
};

/** Everything a control route needs, built once from the deps. */
export type ControlContext = {
  database: Database;
  tokens: ServiceTokens;
  upstreams: { tenant: Upstream; mcp?: Upstream };
  env: ControlEnv;
  clock: () => Date;
  health: HealthChecks;
  accessTokens: LocalAccessTokens;
  authenticate: Authenticator;
  /** Per-user valid-after, disabled and role, and signed-out token ids, as every request checks them. */
  accessState: AccessState;
  revocations: AccessTokenRevocations;
  limiter: LoginLimiter;
  directory: UserDirectory;
  sessionProviders: Record<string, SessionProvider>;
  log: Logger;
  /** What the invitation verbs use besides the database: mailer, identity admin, links and lifetimes. */
  invitations: InvitationServices;
  /** Whether e-mail can go out (SMTP_URL or a mailer given): "forgot password" is offered only then. */
  mailConfigured: boolean;
  /** Work after the answer (password-reset e-mails), in order, failures logged. */
  background: BackgroundQueue;
  /** Live collaboration: the events streams and presences of this replica. */
  live: Live;
  /** AUTH_MODE=session: better-auth and the cached session lookup; absent in the local profile. */
  session?: { auth: SessionAuth; lookup: SessionLookup };
};
