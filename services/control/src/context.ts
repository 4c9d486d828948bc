import type { Database } from "@ams/db";
import type { ServiceTokens } from "@ams/shared";
import { createLocalAccessTokens, type LocalAccessTokens } from "./auth/access-token.ts";
import { type Authenticator, createAuthenticator } from "./auth/authenticate.ts";
import { createLocalDirectory, type UserDirectory } from "./auth/directory.ts";
import { createLoginLimiter, type LoginLimiter } from "./auth/login-limit.ts";
import { type AccessTokenRevocations, createAccessTokenRevocations } from "./auth/revocations.ts";
import type { SessionProvider } from "./auth/session-providers.ts";
import type { ControlDeps, HealthChecks } from "./deps.ts";
import type { ControlEnv } from "./env.ts";
import type { Upstream } from "./gateway/upstream.ts";
import type { Logger } from "./http/problem.ts";

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
  revocations: AccessTokenRevocations;
  limiter: LoginLimiter;
  directory: UserDirectory;
  sessionProviders: Record<string, SessionProvider>;
  log: Logger;
};

export function createControlContext(deps: ControlDeps): ControlContext {
  const clock = deps.clock ?? (() => new Date());
  const accessTokens = createLocalAccessTokens(deps.env.AUTH_JWT_SECRET, clock);
  const revocations = createAccessTokenRevocations(deps.database, clock);
  return {
    database: deps.database,
    tokens: deps.tokens,
    upstreams: deps.upstreams,
    env: deps.env,
    clock,
    health: deps.health ?? {},
    accessTokens,
    authenticate: createAuthenticator({
      database: deps.database,
      verifiers: [accessTokens.verify, ...(deps.accessTokenVerifiers ?? [])],
      clock,
      revocations,
    }),
    revocations,
    limiter: createLoginLimiter(deps.database, clock),
    directory: deps.directory ?? createLocalDirectory(deps.database),
    sessionProviders: deps.sessionProviders ?? {},
    log: deps.log ?? { error: (message, err) => console.error(message, err) },
  };
}
