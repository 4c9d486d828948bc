import { type Database, loginAttempts } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, eq, gt, inArray, like, lt, lte } from "drizzle-orm";

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failures per key in the window that cost nothing: the spec's "5 per 15 minutes". */
export const LOGIN_FREE_FAILURES = 5;
/**
 * Per address and per (username, address): after the free failures, the next attempt waits 60 s after the last
 * failure, and every further failure doubles the wait, up to the whole window (15 minutes). As failures leave the
 * window the count drops again: at most 8 failures fit in any 15 minutes (5 free, then 1, 2 and 4 minutes apart).
 */
export const LOGIN_FIRST_DELAY_MS = 60_000;
/**
 * Per username from every address together: free failures, then a wait of 1 s doubling up to 30 s at most, so that
 * a campaign spread over many addresses is slowed to about one guess per 30 s, while the real user, signing in from
 * an address they have not used, waits 30 s at worst. From an address they signed in from within KNOWN_PAIR_MS this
 * key does not apply at all.
 */
export const LOGIN_FREE_FAILURES_PER_USERNAME = 10;
export const LOGIN_USERNAME_FIRST_DELAY_MS = 1_000;
export const LOGIN_USERNAME_MAX_DELAY_MS = 30_000;
/** How long a successful sign-in makes its (username, address) pair a known one. */
export const KNOWN_PAIR_MS = 30 * 24 * 60 * 60 * 1000;

export type LoginAttempt = {
  /** The sign-in succeeded: forget this attempt and the pair's failures; remember the pair as a known one. */
  succeeded(): Promise<void>;
};

export type LoginLimiter = {
  /**
   * Counts an attempt against every key before the password is checked (so parallel guesses cannot slip past the
   * count) and throws RATE_LIMITED with Retry-After while a key's delay since its last failure has not passed.
   */
  begin(keys: { username: string; ip: string }): Promise<LoginAttempt>;
};

type Policy = { free: number; firstMs: number; maxMs: number };
const perAddress: Policy = { free: LOGIN_FREE_FAILURES, firstMs: LOGIN_FIRST_DELAY_MS, maxMs: LOGIN_WINDOW_MS };
const perUsername: Policy = {
  free: LOGIN_FREE_FAILURES_PER_USERNAME,
  firstMs: LOGIN_USERNAME_FIRST_DELAY_MS,
  maxMs: LOGIN_USERNAME_MAX_DELAY_MS,
};

/** The wait after the last of `failures` failures in the window: none while free, then doubling, capped. */
export function backoffMs(failures: number, policy: Policy): number {
  if (failures < policy.free) return 0;
  return Math.min(policy.maxMs, policy.firstMs * 2 ** Math.min(failures - policy.free, 30));
}

/**
 * Exponential backoff instead of a lockout, counted in the database (login_attempts) so every replica applies the
 * same delays: keys `ip:<address>`, `user-ip:<username>@<address>` (perAddress) and `user:<username>`
 * (perUsername, skipped for a known pair, `ok:<username>@<address>`). A failure is one row per key; a sign-in
 * refused with 429 counts nothing.
 */
export function createLoginLimiter(database: Database, clock: () => Date): LoginLimiter {
  const { db } = database;
  return {
    async begin({ username, ip }) {
      const now = clock();
      const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
      const pairKey = `user-ip:${username}@${ip}`;
      const knownKey = `ok:${username}@${ip}`;
      const [known] = await db
        .select({ at: loginAttempts.attemptedAt })
        .from(loginAttempts)
        .where(
          and(eq(loginAttempts.key, knownKey), gt(loginAttempts.attemptedAt, new Date(now.getTime() - KNOWN_PAIR_MS))),
        )
        .limit(1);
      const policies = new Map<string, Policy>([
        [`ip:${ip}`, perAddress],
        [pairKey, perAddress],
        [`user:${username}`, perUsername],
      ]);
      const keys = [...policies.keys()];
      await db
        .delete(loginAttempts)
        .where(and(inArray(loginAttempts.key, keys), lte(loginAttempts.attemptedAt, since)));
      const mine = await db
        .insert(loginAttempts)
        .values(keys.map((key) => ({ key, attemptedAt: now })))
        .returning({ id: loginAttempts.id });
      const myIds = new Set(mine.map((r) => r.id));
      const rows = await db
        .select({ id: loginAttempts.id, key: loginAttempts.key, at: loginAttempts.attemptedAt })
        .from(loginAttempts)
        .where(and(inArray(loginAttempts.key, keys), gt(loginAttempts.attemptedAt, since)))
        .orderBy(desc(loginAttempts.attemptedAt), desc(loginAttempts.id));
      let retryAt = 0;
      for (const [key, policy] of policies) {
        if (known && policy === perUsername) continue;
        const earlier = rows.filter((r) => r.key === key && !myIds.has(r.id));
        const last = earlier[0];
        const wait = backoffMs(earlier.length, policy);
        if (last && wait > 0) retryAt = Math.max(retryAt, new Date(last.at).getTime() + wait);
      }
      if (retryAt > now.getTime()) {
        await db.delete(loginAttempts).where(inArray(loginAttempts.id, [...myIds]));
        const seconds = Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000));
        throw new AppError("RATE_LIMITED", "Too many failed sign-in attempts; try again later", {
          headers: { "Retry-After": String(seconds) },
        });
      }
      return {
        async succeeded() {
          await db.delete(loginAttempts).where(inArray(loginAttempts.key, [pairKey, knownKey]));
          await db.delete(loginAttempts).where(inArray(loginAttempts.id, [...myIds]));
          await db.insert(loginAttempts).values({ key: knownKey, attemptedAt: now });
          // Known pairs older than their lifetime go with each success (no other key lives past the window).
          const expired = new Date(now.getTime() - KNOWN_PAIR_MS);
          await db
            .delete(loginAttempts)
            .where(and(like(loginAttempts.key, "ok:%"), lt(loginAttempts.attemptedAt, expired)));
        },
      };
    },
  };
}
