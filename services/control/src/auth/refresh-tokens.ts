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
  /** A new token of the same session; `grace`: the token presented had just been rotated (another tab). */
  | { kind: "rotated"; userId: string; familyId: string; token: string; grace: boolean }
  /** A token rotated before was presented again: every session of the user has been revoked. */
  | { kind: "reused"; userId: string }
  | { kind: "invalid" };

/**
 * Swaps a live refresh token for a new one of the same session. The claim is a compare-and-swap on rotated_at,
 * so two concurrent refreshes with one token cannot both claim it. A token rotated less than `graceMs` ago and not
 * revoked since is not a theft but another tab of the same browser refreshing at the same moment (OAuth 2.0
 * Security BCP, RFC 9700 §4.14.2): it gets another successor in its session (both successors live on). Presented
 * again later, a rotated token is a reuse: every session of the user ends, access tokens included.
 */
export function rotateRefreshToken(db: Db, token: string, now: Date, graceMs = 0): Promise<RotateResult> {
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
      return { kind: "rotated", userId: claimed.userId, familyId: claimed.familyId, token: next, grace: false };
    }
    const [known] = await tx
      .select({
        userId: refreshTokens.userId,
        familyId: refreshTokens.familyId,
        rotatedAt: refreshTokens.rotatedAt,
        revokedAt: refreshTokens.revokedAt,
        expiresAt: refreshTokens.expiresAt,
      })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash));
    if (!known?.rotatedAt) return { kind: "invalid" };
    const sinceRotation = now.getTime() - known.rotatedAt.getTime();
    if (!known.revokedAt && known.expiresAt > now && sinceRotation < graceMs) {
      const next = await issueRefreshToken(tx, known.userId, known.familyId, now);
      return { kind: "rotated", userId: known.userId, familyId: known.familyId, token: next, grace: true };
    }
    await revokeAllSessions(tx, known.userId, now);
    return { kind: "reused", userId: known.userId };
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
