import type { Database } from "@ams/db";
import { API_TOKEN_PREFIX } from "../auth/api-token-format.ts";
import { cachedApiTokenLookup } from "../auth/api-token-lookup.ts";
import type { Authenticator } from "../auth/authenticate.ts";
import { PLATFORM_ADMIN_ROLE } from "../auth/claims.ts";
import type { Principal } from "../auth/principal.ts";
import { checkOrigin } from "../http/csrf.ts";
import type { SessionAuth } from "./better-auth.ts";
import { createTtlCache, type TtlCache } from "./cache.ts";

export type SessionLookup = {
  authenticate: Authenticator;
  /** Forgets cached lookups of a user's sessions (after sign-out or a revocation through this process). */
  forgetUser(userId: string): void;
};

type Cached = Principal | null;

/**
 * The session profile's caller identification: `Authorization: Bearer` carries a personal API token (never a JWT),
 * otherwise better-auth's session cookie. A cookie-authenticated write must come from a trusted origin (CSRF).
 * Session lookups are cached for SESSION_CACHE_SECONDS, keyed by the value of exactly the cookie better-auth reads
 * (its configured name), and better-auth is shown only that cookie: the key and what it identifies cannot differ,
 * whatever other cookies (a sibling subdomain's `a_session_token`, a shadowing duplicate) the browser sends along.
 */
export function createSessionAuthenticator(opts: {
  auth: SessionAuth;
  database: Database;
  clock: () => Date;
  cacheSeconds: number;
  trustedOrigins: string[];
}): SessionLookup {
  const cache: TtlCache<Cached> = createTtlCache(opts.cacheSeconds * 1000, opts.clock);
  const lookupApiToken = cachedApiTokenLookup(opts.database);
  const cookieName = opts.auth.$context.then((context) => context.authCookies.sessionToken.name);
  const lookup = async (name: string, value: string): Promise<Cached> => {
    const hit = cache.get(value);
    if (hit !== undefined) return hit;
    const found = await opts.auth.api.getSession({
      headers: new Headers({ cookie: `${name}=${value}` }),
      query: { disableCookieCache: true, disableRefresh: true },
    });
    const principal = found ? principalOf(found) : null;
    cache.set(value, principal);
    return principal;
  };
  return {
    authenticate: async (c) => {
      const header = c.req.header("authorization");
      if (header !== undefined) {
        const token = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1];
        if (!token?.startsWith(API_TOKEN_PREFIX)) return null;
        return lookupApiToken(token, opts.clock());
      }
      const name = await cookieName;
      // A browser sends a same-named cookie once per matching domain and path; only a valid one signs in.
      for (const value of cookieValues(c.req.header("cookie"), name)) {
        const principal = await lookup(name, value);
        if (!principal) continue;
        checkOrigin(c, opts.trustedOrigins);
        return principal;
      }
      return null;
    },
    forgetUser: (userId) => cache.deleteWhere((p) => p?.userId === userId),
  };
}

/** At most this many same-named session cookies are tried (a browser sends one per matching domain and path). */
const MAX_SAME_NAMED = 3;

/** The values of the cookies named exactly `name`, in the order sent. */
export function cookieValues(cookieHeader: string | undefined, name: string): string[] {
  const values: string[] = [];
  if (!cookieHeader) return values;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (value && values.push(value) >= MAX_SAME_NAMED) break;
  }
  return values;
}

type Found = {
  user: {
    id: string;
    name: string;
    email: string;
    emailVerified: boolean;
    username?: string | null;
    role?: string | null;
    mustChangePassword?: boolean | null;
  };
  session: { id: string; activeOrganizationId?: string | null };
};

function principalOf({ user, session }: Found): Principal {
  return {
    userId: user.id,
    username: user.username ?? user.email,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    platformAdmin: user.role === PLATFORM_ADMIN_ROLE,
    mustChangePassword: user.mustChangePassword ?? false,
    provider: "session",
    activeOrganizationId: session.activeOrganizationId ?? null,
    sessionId: session.id,
    apiToken: null,
  };
}
