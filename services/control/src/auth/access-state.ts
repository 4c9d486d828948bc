import type { Database } from "@ams/db";
import { sql } from "drizzle-orm";
import { PLATFORM_ADMIN_ROLE } from "./claims.ts";

/** What every request's access check needs of a user's row; null once the user is deleted. */
export type UserAccess = {
  /** Local access tokens issued before this (epoch microseconds) are refused; null: none is. */
  validAfterUs: number | null;
  platformAdmin: boolean;
  /** Disabled by the platform admin (users.banned, until ban_expires when set). */
  banned: boolean;
  banExpiresMs: number | null;
};

export type AccessState = {
  /** The user's access state, as committed: this replica's memory, else one primary-key lookup. */
  user(userId: string): Promise<UserAccess | null>;
  /** Whether the access token with this id (its jti) was signed out. */
  isRevoked(tokenId: string): Promise<boolean>;
  /**
   * After a commit that changed the user's row: this replica forgets it at once (the others when the announcement
   * reaches them, milliseconds later).
   */
  forgetUser(userId: string): void;
  /** After a commit that revoked the token: this replica refuses it at once. */
  noteRevoked(tokenId: string): void;
};

/** The channel the triggers of migration 0017 announce changes on: `user:<id>` or `jti:<id>`. */
export const ACCESS_CHANNEL = "access_changes";
/** Remembered entries per kind; all forgotten when full (more than the users and tokens one replica serves). */
const KEPT = 50_000;
/**
 * How long an entry is believed at most, announcement or not: the bound when the LISTEN connection is cut without
 * the socket saying so (a network partition is noticed only by TCP keepalive). Real time, not the app's clock.
 */
export const BELIEVED_MS = 5_000;

type Kept<T> = { value: T; until: number };

type UserRow = {
  valid_after_us: number | null;
  platform_admin: boolean;
  banned: boolean;
  ban_expires_ms: number | null;
};

/**
 * The per-user "valid after" check, cheap enough for every request: each replica remembers what it read (users
 * and revoked token ids) and forgets an entry when PostgreSQL announces, at the commit that changed it, that it
 * changed (LISTEN access_changes; triggers on users and revoked_access_tokens send the NOTIFY, whoever writes).
 * While the subscription is not in place (starting, or its connection lost) nothing is remembered or believed: every
 * check reads the database; and nothing is believed longer than BELIEVED_MS (on PostgreSQL: the embedded database's
 * announcements come in this process, with nothing between to cut). A read that raced with an announcement is used
 * once, not remembered (the epoch).
 */
export function createAccessState(database: Database): AccessState {
  // The embedded database: the announcement is handed to this process at the commit (no connection to lose).
  const believedMs = database.kind === "pglite" ? Number.POSITIVE_INFINITY : BELIEVED_MS;
  const users = new Map<string, Kept<UserAccess | null>>();
  const revoked = new Map<string, Kept<boolean>>();
  let live = false;
  let epoch = 0;
  let listening = false;
  const forgetAll = () => {
    epoch++;
    users.clear();
    revoked.clear();
  };
  const listen = () => {
    if (listening) return;
    listening = true;
    // Stopped when the database is closed; until live(true) every check reads the database.
    void database
      .listen(ACCESS_CHANNEL, {
        notify(payload) {
          epoch++;
          if (payload.startsWith("user:")) users.delete(payload.slice(5));
          else if (payload.startsWith("jti:")) revoked.set(payload.slice(4), { value: true, until: Infinity });
        },
        live(isLive) {
          forgetAll();
          live = isLive;
        },
      })
      .catch(() => {
        listening = false;
      });
  };
  const keep = <T>(map: Map<string, Kept<T>>, key: string, value: T, since: number) => {
    if (!live || epoch !== since) return;
    if (map.size >= KEPT) map.clear();
    map.set(key, { value, until: performance.now() + believedMs });
  };
  const recall = <T>(map: Map<string, Kept<T>>, key: string): Kept<T> | undefined => {
    const kept = live ? map.get(key) : undefined;
    return kept && kept.until > performance.now() ? kept : undefined;
  };
  return {
    forgetUser(userId) {
      epoch++;
      users.delete(userId);
    },
    noteRevoked(tokenId) {
      epoch++;
      if (live) revoked.set(tokenId, { value: true, until: Infinity });
    },
    async user(userId) {
      listen();
      const kept = recall(users, userId);
      if (kept) return kept.value;
      const since = epoch;
      const [row] = await database.rows<UserRow>(
        sql`select (extract(epoch from tokens_valid_after) * 1000000)::float8 as valid_after_us,
          role = ${PLATFORM_ADMIN_ROLE} as platform_admin, banned,
          (extract(epoch from ban_expires) * 1000)::float8 as ban_expires_ms
        from users where id = ${userId}`,
      );
      const state: UserAccess | null = row
        ? {
            validAfterUs: row.valid_after_us,
            platformAdmin: row.platform_admin,
            banned: row.banned,
            banExpiresMs: row.ban_expires_ms,
          }
        : null;
      keep(users, userId, state, since);
      return state;
    },
    async isRevoked(tokenId) {
      listen();
      const kept = recall(revoked, tokenId);
      if (kept) return kept.value;
      const since = epoch;
      const rows = await database.rows(sql`select 1 as one from revoked_access_tokens where jti = ${tokenId}`);
      keep(revoked, tokenId, rows.length > 0, since);
      return rows.length > 0;
    },
  };
}

/** Disabled now: banned without an end, or before its end. */
export function isDisabled(user: UserAccess, nowMs: number): boolean {
  return user.banned && (user.banExpiresMs === null || user.banExpiresMs > nowMs);
}
