import { silentLogger } from "@ams/shared";
import { createAccessState } from "./auth/access-state.ts";
import { createLocalAccessTokens } from "./auth/access-token.ts";
import { createAuthenticator } from "./auth/authenticate.ts";
import { createLocalDirectory } from "./auth/directory.ts";
import { createLoginLimiter } from "./auth/login-limit.ts";
import { createAccessTokenRevocations } from "./auth/revocations.ts";
import { refuseDisabledUsers } from "./auth/user-state.ts";
import type { ControlContext } from "./context.ts";
import type { ControlDeps } from "./deps.ts";
import { invitationServices } from "./invitations/services.ts";
import { createLive } from "./live/live.ts";
import { createBackgroundQueue } from "./mail/background.ts";
import { createSessionAuthenticator, type SessionLookup } from "./session/authenticate.ts";
import { createSessionAuth, type SessionMail } from "./session/better-auth.ts";

/** Everything a control route needs, built once from the deps. */
export function createControlContext(deps: ControlDeps): ControlContext {
  const clock = deps.clock ?? (() => new Date());
  const accessTokens = createLocalAccessTokens(deps.env.AUTH_JWT_SECRET, clock);
  const accessState = deps.accessState ?? createAccessState(deps.database);
  const revocations = createAccessTokenRevocations(deps.database, accessState, clock);
  const log = deps.log ?? silentLogger;
  const invitations = invitationServices({ database: deps.database, clock, log, env: deps.env }, deps);
  const background = createBackgroundQueue(log);
  const mail = { mailer: invitations.mailer, background, log };
  const session = deps.env.AUTH_MODE === "session" ? sessionProfile(deps, clock, mail) : undefined;
  return {
    database: deps.database,
    tokens: deps.tokens,
    upstreams: deps.upstreams,
    env: deps.env,
    clock,
    health: deps.health ?? {},
    accessTokens,
    authenticate: refuseDisabledUsers(
      session?.lookup.authenticate ??
        createAuthenticator({
          database: deps.database,
          local: accessTokens,
          verifiers: deps.accessTokenVerifiers ?? [],
          clock,
          state: accessState,
          revocations,
          trustedOrigins: trustedOrigins(deps.env),
        }),
      accessState,
      clock,
    ),
    accessState,
    revocations,
    limiter: createLoginLimiter(deps.database, clock),
    directory: deps.directory ?? createLocalDirectory(deps.database),
    sessionProviders: deps.sessionProviders ?? {},
    log,
    invitations,
    mailConfigured: Boolean(deps.mailer ?? deps.env.SMTP_URL),
    background,
    live: deps.live ?? createLive({ database: deps.database, log, natsUrl: deps.env.NATS_URL }),
    session,
  };
}

/** The session profile (AUTH_MODE=session): callers are identified by better-auth's cookie or an API token. */
function sessionProfile(deps: ControlDeps, clock: () => Date, mail: Omit<SessionMail, "forgetUser" | "clock">) {
  // A password reset ends the user's sessions; this process forgets its cached lookups of them at once.
  const forgetUser = (userId: string) => lookup.forgetUser(userId);
  const auth = createSessionAuth(deps.env, deps.database, { ...mail, clock, forgetUser });
  const lookup: SessionLookup = createSessionAuthenticator({
    auth,
    database: deps.database,
    clock,
    cacheSeconds: deps.env.SESSION_CACHE_SECONDS,
    trustedOrigins: trustedOrigins(deps.env),
  });
  return { auth, lookup };
}

/** Where cookie-authenticated writes may come from besides the request's own origin (http/csrf.ts). */
function trustedOrigins(env: ControlDeps["env"]): string[] {
  return [new URL(env.PUBLIC_URL).origin, ...env.TRUSTED_ORIGINS];
}
