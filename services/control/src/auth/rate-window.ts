import { type DbOrTx, loginAttempts } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, desc, eq, gt, lte } from "drizzle-orm";

/** A sliding window: at most `max` counted events per `windowMs` under one key. */
export type RateWindow = { max: number; windowMs: number };

/**
 * Counts one event under `key` in the shared login_attempts table (every control replica sees the same window) and
 * answers whether it fits: the event is stored before the count, so parallel requests cannot slip past together;
 * one that does not fit is removed again and the answer says when a slot frees up.
 */
export async function countInWindow(
  db: DbOrTx,
  key: string,
  limit: RateWindow,
  now: Date,
): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  const since = new Date(now.getTime() - limit.windowMs);
  await db.delete(loginAttempts).where(and(eq(loginAttempts.key, key), lte(loginAttempts.attemptedAt, since)));
  const [mine] = await db.insert(loginAttempts).values({ key, attemptedAt: now }).returning({ id: loginAttempts.id });
  const earlier = (
    await db
      .select({ id: loginAttempts.id, at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since)))
      .orderBy(desc(loginAttempts.attemptedAt), desc(loginAttempts.id))
  ).filter((r) => r.id !== mine?.id);
  const oldestCounted = earlier[limit.max - 1];
  if (!oldestCounted) return { allowed: true };
  if (mine) await db.delete(loginAttempts).where(eq(loginAttempts.id, mine.id));
  const retryAt = new Date(oldestCounted.at).getTime() + limit.windowMs;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now.getTime()) / 1000)) };
}

/** countInWindow that refuses with 429 and Retry-After when the event does not fit. */
export async function requireInWindow(
  db: DbOrTx,
  key: string,
  limit: RateWindow,
  now: Date,
  message: string,
): Promise<void> {
  const counted = await countInWindow(db, key, limit, now);
  if (counted.allowed) return;
  throw new AppError("RATE_LIMITED", message, { headers: { "Retry-After": String(counted.retryAfterSeconds) } });
}
