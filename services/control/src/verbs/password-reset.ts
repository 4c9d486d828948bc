import { users } from "@ams/db";
import { AppError } from "@ams/shared";
import { eq } from "drizzle-orm";
import { recordAuditEvent } from "../audit/record.ts";
import { hashPassword } from "../auth/passwords.ts";
import { requireInWindow } from "../auth/rate-window.ts";
import { revokeAllSessions } from "../auth/refresh-tokens.ts";
import { setLocalPassword } from "../auth/users.ts";
import { LIMITS, normalizeEmail } from "../password-reset/limits.ts";
import { mailLocalResetLink } from "../password-reset/request.ts";
import type { ForgotPasswordInput, ResetPasswordInput } from "../password-reset/schemas.ts";
import { claimResetToken, retireResetTokens } from "../password-reset/tokens.ts";
import type { PublicContext } from "./context.ts";

function requireLocalProfile(ctx: PublicContext): void {
  if (ctx.session) throw new AppError("FORBIDDEN", "This deployment uses the session profile: use /auth's reset");
}

/**
 * "Forgot password" of a local account. The answer is the same whatever the address: after the client address's
 * limit (429), the rest (the address's and the account's limits, the token, the e-mail) runs after the answer,
 * so neither the answer nor its timing tells whether an account uses the address.
 */
export async function forgotPassword({
  ctx,
  input,
}: {
  ctx: PublicContext;
  input: ForgotPasswordInput & { clientIp: string };
}): Promise<void> {
  requireLocalProfile(ctx);
  if (!ctx.mailConfigured) {
    throw new AppError("UNAVAILABLE", "E-mail is not configured on this server, so no reset link can be sent");
  }
  await requireInWindow(
    ctx.database.db,
    `pw-forgot-ip:${input.clientIp}`,
    LIMITS.forgotPerIp,
    ctx.clock(),
    "Too many password reset requests from this address; try again later",
  );
  const email = normalizeEmail(input.email);
  const address = ctx.address ?? input.clientIp;
  ctx.background.run("password reset e-mail", () => mailLocalResetLink(ctx, email, address));
}

/**
 * Sets a new password from a mailed link: the token is used once (compare-and-swap), the user's other links stop
 * working, every session of the user ends (refresh tokens revoked) and a forced change is satisfied. The caller
 * then signs in with the new password.
 */
export async function resetPassword({
  ctx,
  input,
}: {
  ctx: PublicContext;
  input: ResetPasswordInput & { clientIp: string };
}): Promise<void> {
  requireLocalProfile(ctx);
  await requireInWindow(
    ctx.database.db,
    `pw-reset-ip:${input.clientIp}`,
    LIMITS.resetPerIp,
    ctx.clock(),
    "Too many password resets from this address; try again later",
  );
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock();
  const resetUserId = await ctx.database.db.transaction(async (tx) => {
    const userId = await claimResetToken(tx, input.token, now);
    await setLocalPassword(tx, userId, passwordHash, now);
    await tx.update(users).set({ mustChangePassword: false, updatedAt: now }).where(eq(users.id, userId));
    await retireResetTokens(tx, userId, now);
    await revokeAllSessions(tx, userId, now);
    const [user] = await tx.select({ username: users.username }).from(users).where(eq(users.id, userId));
    const subject = { id: userId, name: user?.username ?? userId };
    await recordAuditEvent(tx, {
      kind: "password.reset",
      actor: subject,
      target: subject,
      address: ctx.address ?? input.clientIp,
      details: { via: "e-mailed link" },
    });
    return userId;
  });
  // This replica refuses the old access tokens at once; the others when the database's announcement reaches them.
  ctx.accessState.forgetUser(resetUserId);
}
