import { type Database, loginAttempts } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, gt, inArray, lte } from "drizzle-orm";

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 5;
/**
 * Failures of one username from every address together. Much higher than the per-address limits, so a stranger
 * guessing from elsewhere cannot lock the real user out with five wrong passwords, yet a guessing campaign spread
 * over many addresses is still slowed down to this many tries per window.
 */
export const LOGIN_MAX_FAILURES_PER_USERNAME = 50;

export type LoginAttempt = {
  /** The sign-in succeeded: forget this attempt and the username's earlier failures from this address. */
  succeeded(): Promise<void>;
};

export type LoginLimiter = {
  /**
   * Counts an attempt against every key before the password is checked (so parallel guesses cannot slip past the
   * count) and throws RATE_LIMITED with Retry-After when a key already has its limit of failures in the last 15
   * minutes. The keys: the client address (5, the spec's per-IP limit), the username from that address (5, the
   * spec's per-username limit, counted per address so that it cannot be used to lock someone else out) and the
   * username from anywhere (LOGIN_MAX_FAILURES_PER_USERNAME).
   */
  begin(keys: { username: string; ip: string }): Promise<LoginAttempt>;
};

export function createLoginLimiter(database: Database, clock: () => Date): LoginLimiter {
  const { db } = database;
  return {
    async begin({ username, ip }) {
      const now = clock();
      const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
      const pairKey = `user-ip:${username}@${ip}`;
      const limits = new Map([
        [`ip:${ip}`, LOGIN_MAX_FAILURES],
        [pairKey, LOGIN_MAX_FAILURES],
        [`user:${username}`, LOGIN_MAX_FAILURES_PER_USERNAME],
      ]);
      const keys = [...limits.keys()];
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
      for (const [key, max] of limits) {
        const earlier = rows.filter((r) => r.key === key && !myIds.has(r.id));
        const oldestCounted = earlier[max - 1];
        if (oldestCounted) {
          // The window frees a slot when the max-th most recent failure leaves it.
          const freedAt = new Date(oldestCounted.at).getTime() + LOGIN_WINDOW_MS;
          retryAt = Math.max(retryAt, freedAt);
        }
      }
      if (retryAt > 0) {
        await db.delete(loginAttempts).where(inArray(loginAttempts.id, [...myIds]));
        const seconds = Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000));
        throw new AppError("RATE_LIMITED", "Too many failed sign-in attempts; try again later", {
          headers: { "Retry-After": String(seconds) },
        });
      }
      return {
        async succeeded() {
          await db.delete(loginAttempts).where(inArray(loginAttempts.key, [pairKey]));
          await db.delete(loginAttempts).where(inArray(loginAttempts.id, [...myIds]));
        },
      };
    },
  };
}
