import { type Db, type DbOrTx, refreshTokens } from "@ams/db";
import { and, eq, gt, isNull } from "drizzle-orm";
import { randomSecret, sha256Hex } from "./secrets.ts";
import { refuseAccessTokensBefore } from "./valid-after.ts";

export const REFRESH_TOKEN_SECONDS = 30 * 24 * 60 * 60;

/** Issues an opaque refresh token in the session `familyId`; only its SHA-256 is stored. */
export async function issueRefreshToken(db: DbOrTx, userId: string, familyId: string, now: Date): Promise<string> {
  const token = randomSecret(32);
  await db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000),
  });
  return token;
}

export type RotateResult =
  | { kind: "rotated"; userId: string; familyId: string; token: string }
  /** A token rotated before was presented again: every session of the user has been revoked. */
  | { kind: "reused"; userId: string }
  | { kind: "invalid" };

/**
 * Swaps a live refresh token for a new one of the same session. The claim is a compare-and-swap on rotated_at,
 * so two concurrent refreshes with one token cannot both succeed; the loser counts as a reuse.
 */
export function rotateRefreshToken(db: Db, token: string, now: Date): Promise<RotateResult> {
  const tokenHash = sha256Hex(token);
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(refreshTokens)
      .set({ rotatedAt: now })
      .where(
        and(
          eq(refreshTokens.tokenHash, tokenHash),
          isNull(refreshTokens.rotatedAt),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, now),
        ),
      )
      .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
    if (claimed) {
      const next = await issueRefreshToken(tx, claimed.userId, claimed.familyId, now);
      return { kind: "rotated", userId: claimed.userId, familyId: claimed.familyId, token: next };
    }
    const [known] = await tx
      .select({ userId: refreshTokens.userId, rotatedAt: refreshTokens.rotatedAt })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash));
    if (known?.rotatedAt) {
      await revokeAllSessions(tx, known.userId, now);
      return { kind: "reused", userId: known.userId };
    }
    return { kind: "invalid" };
  });
}

/** Ends the session the token belongs to (logout); unknown tokens are ignored. */
export async function revokeSessionOf(db: DbOrTx, token: string, now: Date): Promise<void> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256Hex(token)));
  if (!row) return;
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
}

/**
 * Ends every session of the user: their refresh tokens, and on every replica their access tokens issued before
 * `now` (the caller's replica forgets the user's cached state after the commit: ctx.accessState.forgetUser).
 */
export async function revokeAllSessions(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await refuseAccessTokensBefore(db, userId, now);
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
