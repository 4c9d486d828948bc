import { type DbOrTx, passwordResetTokens } from "@ams/db";
import { randomSecret, sha256Hex } from "../auth/secrets.ts";
import type { SessionAuth } from "../session/better-auth.ts";

/** How long a link the platform admin makes (a new account, a reset) works: a day, to reach someone by hand. */
export const SET_PASSWORD_LINK_HOURS = 24;

export type IssuedLink = { token: string; expiresAt: Date };

/**
 * A one-time link to choose a password, on the same mechanism as "forgot password", so the same page redeems it:
 * in the local profile a row in password_reset_tokens (purpose `set`, only the SHA-256 of the token), redeemed by
 * POST /api/auth/local/reset-password; in the session profile better-auth's own reset token (a verification
 * `reset-password:<token>` whose identifier better-auth stores hashed), redeemed by POST /auth/reset-password.
 * Local: call inside the transaction that makes the account or resets it. Session: call after it committed.
 */
export async function issueSetPasswordToken(db: DbOrTx, userId: string, now: Date): Promise<IssuedLink> {
  const token = randomSecret(32);
  const expiresAt = new Date(now.getTime() + SET_PASSWORD_LINK_HOURS * 3600 * 1000);
  await db.insert(passwordResetTokens).values({
    userId,
    purpose: "set",
    tokenHash: sha256Hex(token),
    createdAt: now,
    expiresAt,
  });
  return { token, expiresAt };
}

export async function issueSessionSetPasswordToken(auth: SessionAuth, userId: string, now: Date): Promise<IssuedLink> {
  const token = randomSecret(32);
  const expiresAt = new Date(now.getTime() + SET_PASSWORD_LINK_HOURS * 3600 * 1000);
  const context = await auth.$context;
  await context.internalAdapter.createVerificationValue({
    identifier: `reset-password:${token}`,
    value: userId,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The page a link opens: the token rides in the fragment, which browsers never send to a server. */
export function setPasswordUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/reset-password#token=${token}`;
}
