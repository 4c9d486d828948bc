import { type DbOrTx, totpCodeClaims } from "@ams/db";
import { and, eq, lte } from "drizzle-orm";
import { sha256Hex } from "../auth/secrets.ts";
import { CODE_LIFETIME_MS } from "./totp.ts";

/**
 * Claims a TOTP code for its user: false when the same code was used already within its window (RFC 6238 §5.2:
 * a code is good for one sign-in). The claim is the row's insert, so two concurrent uses cannot both win.
 */
export async function claimTotpCode(db: DbOrTx, userId: string, code: string, now: Date): Promise<boolean> {
  await db.delete(totpCodeClaims).where(and(eq(totpCodeClaims.userId, userId), lte(totpCodeClaims.expiresAt, now)));
  const claimed = await db
    .insert(totpCodeClaims)
    .values({ userId, codeHash: sha256Hex(code.trim()), expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS) })
    .onConflictDoNothing()
    .returning({ userId: totpCodeClaims.userId });
  return claimed.length === 1;
}

/** Gives a claim back (the code turned out wrong, so it was never used). */
export async function releaseTotpCode(db: DbOrTx, userId: string, code: string): Promise<void> {
  await db
    .delete(totpCodeClaims)
    .where(and(eq(totpCodeClaims.userId, userId), eq(totpCodeClaims.codeHash, sha256Hex(code.trim()))));
}
