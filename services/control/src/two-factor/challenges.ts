import { type DbOrTx, twoFactorChallenges } from "@ams/db";
import { and, eq, gt, isNull, lt, lte, sql } from "drizzle-orm";
import { randomSecret, sha256Hex } from "../auth/secrets.ts";

/** How long the second step may take after the password was right. */
export const CHALLENGE_SECONDS = 5 * 60;
/** Wrong codes one challenge survives; then the password must be given again. */
export const CHALLENGE_MAX_ATTEMPTS = 5;

/** A new second-step challenge for the user; only its SHA-256 is stored. */
export async function issueChallenge(
  db: DbOrTx,
  userId: string,
  now: Date,
): Promise<{ challenge: string; expiresAt: Date }> {
  await db.delete(twoFactorChallenges).where(lte(twoFactorChallenges.expiresAt, now));
  const challenge = randomSecret(32);
  const expiresAt = new Date(now.getTime() + CHALLENGE_SECONDS * 1000);
  await db.insert(twoFactorChallenges).values({ tokenHash: sha256Hex(challenge), userId, expiresAt });
  return { challenge, expiresAt };
}

/**
 * Counts one attempt on a live challenge and answers its user; null when the challenge is unknown, used, expired or
 * out of attempts. The count is one UPDATE, so parallel attempts cannot exceed the limit.
 */
export async function takeChallengeAttempt(db: DbOrTx, challenge: string, now: Date): Promise<string | null> {
  const [row] = await db
    .update(twoFactorChallenges)
    .set({ attempts: sql`${twoFactorChallenges.attempts} + 1` })
    .where(
      and(
        eq(twoFactorChallenges.tokenHash, sha256Hex(challenge)),
        isNull(twoFactorChallenges.usedAt),
        gt(twoFactorChallenges.expiresAt, now),
        lt(twoFactorChallenges.attempts, CHALLENGE_MAX_ATTEMPTS),
      ),
    )
    .returning({ userId: twoFactorChallenges.userId });
  return row?.userId ?? null;
}

/** Uses the challenge up (single use); false when another request used it first. */
export async function consumeChallenge(db: DbOrTx, challenge: string, now: Date): Promise<boolean> {
  const used = await db
    .update(twoFactorChallenges)
    .set({ usedAt: now })
    .where(and(eq(twoFactorChallenges.tokenHash, sha256Hex(challenge)), isNull(twoFactorChallenges.usedAt)))
    .returning({ userId: twoFactorChallenges.userId });
  return used.length === 1;
}
