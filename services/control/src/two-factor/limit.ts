import { type Database, loginAttempts } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, asc, eq, gt, inArray, lte } from "drizzle-orm";
import { LOGIN_WINDOW_MS } from "../auth/login-limit.ts";

/**
 * Wrong second-step codes per account, from every challenge and address together: a password guessed right still
 * leaves a million codes to try, and this caps the tries at 10 per 15 minutes (each challenge allows 5 more itself).
 */
export const TWO_FACTOR_MAX_FAILURES = 10;

export type CodeAttempt = { succeeded(): Promise<void> };

/**
 * Counts a code attempt for the user before the code is checked (parallel guesses cannot slip past the count) and
 * throws RATE_LIMITED with Retry-After when the user already has the limit of failures in the window.
 */
export async function beginCodeAttempt(database: Database, userId: string, now: Date): Promise<CodeAttempt> {
  const { db } = database;
  const key = `two-factor:${userId}`;
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  await db.delete(loginAttempts).where(and(eq(loginAttempts.key, key), lte(loginAttempts.attemptedAt, since)));
  const [mine] = await db.insert(loginAttempts).values({ key, attemptedAt: now }).returning({ id: loginAttempts.id });
  const myId = mine?.id ?? -1;
  const earlier = (
    await db
      .select({ id: loginAttempts.id, at: loginAttempts.attemptedAt })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since)))
      .orderBy(asc(loginAttempts.attemptedAt), asc(loginAttempts.id))
  ).filter((r) => r.id !== myId);
  if (earlier.length >= TWO_FACTOR_MAX_FAILURES) {
    await db.delete(loginAttempts).where(inArray(loginAttempts.id, [myId]));
    // A slot frees when the oldest failure counted leaves the window.
    const oldest = earlier[earlier.length - TWO_FACTOR_MAX_FAILURES];
    const freedAt = new Date(oldest?.at ?? now).getTime() + LOGIN_WINDOW_MS;
    const seconds = Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000));
    throw new AppError("RATE_LIMITED", "Too many wrong two-factor codes; try again later", {
      headers: { "Retry-After": String(seconds) },
    });
  }
  return {
    async succeeded() {
      await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
    },
  };
}
