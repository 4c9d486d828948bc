import { type DbOrTx, localTwoFactors, recoveryCodes, users } from "@ams/db";
import { and, count, eq, isNull } from "drizzle-orm";
import { hashRecoveryCode, newRecoveryCodes } from "./recovery-codes.ts";

/** The local profile's two-factor rows of one user (local_two_factors, recovery_codes, users.two_factor_enabled). */
export type LocalTwoFactor = typeof localTwoFactors.$inferSelect;

export async function findLocalTwoFactor(db: DbOrTx, userId: string): Promise<LocalTwoFactor | null> {
  const [row] = await db.select().from(localTwoFactors).where(eq(localTwoFactors.userId, userId));
  return row ?? null;
}

/** Stores a pending enrolment's sealed secret, replacing an earlier unconfirmed one. */
export async function savePendingSecret(db: DbOrTx, userId: string, sealed: string, now: Date): Promise<void> {
  await db
    .insert(localTwoFactors)
    .values({ userId, secretCiphertext: sealed, createdAt: now })
    .onConflictDoUpdate({
      target: localTwoFactors.userId,
      set: { secretCiphertext: sealed, createdAt: now, confirmedAt: null },
    });
}

/** Confirms the enrolment: two-factor is on from now, with fresh recovery codes (answered once, stored hashed). */
export async function confirmEnrolment(db: DbOrTx, userId: string, now: Date): Promise<string[]> {
  await db.update(localTwoFactors).set({ confirmedAt: now }).where(eq(localTwoFactors.userId, userId));
  await db.update(users).set({ twoFactorEnabled: true, updatedAt: now }).where(eq(users.id, userId));
  return replaceRecoveryCodes(db, userId, now);
}

/** Ten new recovery codes; the earlier ones stop working. */
export async function replaceRecoveryCodes(db: DbOrTx, userId: string, now: Date): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code), createdAt: now })));
  return codes;
}

/** Uses one recovery code of the user (single use: the UPDATE claims it); false when none matches unused. */
export async function useRecoveryCode(db: DbOrTx, userId: string, code: string, now: Date): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

export async function unusedRecoveryCodes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

/** Two-factor off: the secret and the recovery codes are deleted. */
export async function removeLocalTwoFactor(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db.delete(localTwoFactors).where(eq(localTwoFactors.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.update(users).set({ twoFactorEnabled: false, updatedAt: now }).where(eq(users.id, userId));
}
