import { type DbOrTx, passwordResetTokens } from "@ams/db";
import { AppError } from "@ams/shared";
import { and, eq, gt, isNull } from "drizzle-orm";
import { randomSecret, sha256Hex } from "../auth/secrets.ts";
import { RESET_LINK_MINUTES } from "./limits.ts";

const SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new one-time link token for the user: 32 random bytes (base64url); only its SHA-256 is stored. */
export async function issueResetToken(db: DbOrTx, userId: string, now: Date): Promise<string> {
  const token = randomSecret(32);
  await db.insert(passwordResetTokens).values({
    userId,
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * 60 * 1000),
  });
  return token;
}

/**
 * Uses the token: a compare-and-swap on used_at, so of two concurrent uses exactly one gets the user back. An
 * unknown token is 404, a used or expired one 410, each saying what to do.
 */
export async function claimResetToken(tx: DbOrTx, token: string, now: Date): Promise<string> {
  if (!SHAPE.test(token)) throw unknownLink();
  const tokenHash = sha256Hex(token);
  const [claimed] = await tx
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResetTokens.userId });
  if (claimed) return claimed.userId;
  const [row] = await tx
    .select({ usedAt: passwordResetTokens.usedAt })
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, tokenHash));
  if (!row) throw unknownLink();
  throw new AppError(
    "GONE",
    row.usedAt
      ? "This password reset link has been used already; ask for a new one"
      : "This password link has expired; ask for a new one",
  );
}

/** The user's other links stop working once one of them has set the password. */
export async function retireResetTokens(tx: DbOrTx, userId: string, now: Date): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

const unknownLink = () => new AppError("NOT_FOUND", "This password reset link is not valid; ask for a new one");
