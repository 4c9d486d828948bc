import type { Database } from "@ams/db";
import type { Context } from "hono";
import { API_TOKEN_PREFIX } from "../auth/api-token-format.ts";
import { lookupApiToken } from "../auth/api-token-lookup.ts";
import type { Authenticator } from "../auth/authenticate.ts";
import { PLATFORM_ADMIN_ROLE } from "../auth/claims.ts";
import type { Principal } from "../auth/principal.ts";
import type { SessionAuth } from "./better-auth.ts";
import { createTtlCache, type TtlCache } from "./cache.ts";
import { checkOrigin } from "./csrf.ts";

export type SessionLookup = {
  authenticate: Authenticator;
  /** Forgets cached lookups of a user's sessions (after sign-out or a revocation through this process). */
  forgetUser(userId: string): void;
};

type Cached = Principal | null;

/**
 * The session profile's caller identification: `Authorization: Bearer` carries a personal API token (never a JWT),
 * otherwise better-auth's session cookie. A cookie-authenticated write must come from a trusted origin (CSRF).
 * Session lookups are cached for SESSION_CACHE_SECONDS, keyed by the cookie header's session part.
 */
export function createSessionAuthenticator(opts: {
  auth: SessionAuth;
  database: Database;
  clock: () => Date;
  cacheSeconds: number;
  trustedOrigins: string[];
}): SessionLookup {
  const cache: TtlCache<Cached> = createTtlCache(opts.cacheSeconds * 1000, opts.clock);
  const lookup = async (c: Context, key: string): Promise<Cached> => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const found = await opts.auth.api.getSession({
      headers: new Headers({ cookie: c.req.header("cookie") ?? "" }),
      query: { disableCookieCache: true, disableRefresh: true },
    });
    const principal = found ? principalOf(found) : null;
    cache.set(key, principal);
    return principal;
  };
  return {
    authenticate: async (c) => {
      const header = c.req.header("authorization");
      if (header !== undefined) {
        const token = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header)?.[1];
        if (!token?.startsWith(API_TOKEN_PREFIX)) return null;
        return lookupApiToken(opts.database, token, opts.clock());
      }
      const key = sessionCookieOf(c.req.header("cookie"));
      if (!key) return null;
      const principal = await lookup(c, key);
      if (principal) checkOrigin(c, opts.trustedOrigins);
      return principal;
    },
    forgetUser: (userId) => cache.deleteWhere((p) => p?.userId === userId),
  };
}

/** The value of the cookie whose name ends in `session_token` (with or without the __Secure- prefix). */
export function sessionCookieOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim().endsWith("session_token")) return part.slice(eq + 1).trim() || null;
  }
  return null;
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
