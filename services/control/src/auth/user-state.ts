import type { Database } from "@ams/db";
import { sql } from "drizzle-orm";
import type { Authenticator } from "./authenticate.ts";

/**
 * The per-user state every request is checked against, on every replica and without a cache: one primary-key
 * lookup in users. A disabled account (users.banned, set by the platform admin) stops working at its next request,
 * whatever credential it presents; so does a deleted one. Further per-user checks (a "valid after" time) belong in
 * this same query.
 */
export type UserState = { disabled: boolean };

export async function readUserState(database: Database, userId: string): Promise<UserState | null> {
  const [row] = await database.rows<{ banned: boolean }>(sql`select banned from users where id = ${userId}`);
  return row ? { disabled: row.banned } : null;
}

/**
 * Wraps an authenticator so that a disabled or deleted user's session or access token is refused. Personal API
 * tokens are resolved with their owner's row already (api-token-lookup.ts refuses a disabled owner in that query);
 * an identity-provider token may name a user who has no row yet (first request before any browser sign-in).
 */
export function refuseDisabledUsers(database: Database, authenticate: Authenticator): Authenticator {
  return async (c) => {
    const principal = await authenticate(c);
    if (!principal || principal.provider === "api-token") return principal;
    const state = await readUserState(database, principal.userId);
    if (state === null) return principal.provider === "oidc" ? principal : null;
    return state.disabled ? null : principal;
  };
}
