import { AppError } from "@ams/shared";
import { recordAnonymousEvent } from "../audit/record.ts";
import type { Identity } from "../auth/principal.ts";
import { findUserById, identityOf } from "../auth/users.ts";
import { consumeChallenge, issueChallenge, takeChallengeAttempt } from "../two-factor/challenges.ts";
import { beginCodeAttempt } from "../two-factor/limit.ts";
import type { SecondStepInput, TwoFactorChallenge } from "../two-factor/schemas.ts";
import { checkSecondFactor, refuseWrongFactor, secretBoxFor } from "../two-factor/second-factor.ts";
import { accountDisabled } from "./accounts.ts";
import type { PublicContext } from "./context.ts";

/** After a right password: a second-step challenge when the account uses two-factor, else null (sign in now). */
export async function twoFactorChallengeFor({
  ctx,
  identity,
}: {
  ctx: PublicContext;
  identity: Identity;
}): Promise<TwoFactorChallenge | null> {
  const user = await findUserById(ctx.database.db, identity.userId);
  if (!user?.twoFactorEnabled) return null;
  const { challenge, expiresAt } = await issueChallenge(ctx.database.db, identity.userId, ctx.clock());
  return { two_factor_required: true, challenge, expires_at: expiresAt.toISOString() };
}

/**
 * The second sign-in step: the challenge (single use, five attempts, five minutes) and a TOTP code or a recovery
 * code, under the per-account limit of wrong codes. Answers the identity the route starts a session for.
 */
export async function completeTwoFactorSignIn({
  ctx,
  input,
}: {
  ctx: PublicContext;
  input: SecondStepInput;
}): Promise<Identity> {
  if (ctx.session) throw new AppError("FORBIDDEN", "Local sign-in is off: this deployment uses the session profile");
  const { db } = ctx.database;
  const now = ctx.clock();
  const userId = await takeChallengeAttempt(db, input.challenge, now);
  if (!userId)
    throw new AppError("UNAUTHENTICATED", "This sign-in has expired or had too many wrong codes; sign in again");
  const attempt = await beginCodeAttempt(ctx.database, userId, now);
  const found = await checkSecondFactor(
    db,
    secretBoxFor(ctx.env),
    userId,
    {
      code: input.code,
      recoveryCode: input.recovery_code,
    },
    now,
  );
  const user = await findUserById(db, userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "The account no longer exists");
  const subject = { id: user.id, name: user.username };
  if (found !== "totp" && found !== "recovery") {
    const reason = found === "replayed" ? "replayed_code" : "wrong_code";
    await recordAnonymousEvent(ctx, {
      kind: "sign_in.failed",
      target: subject,
      details: { method: "two_factor", reason },
    });
  }
  refuseWrongFactor(found, input.recovery_code === undefined ? "code" : "recovery_code", "UNAUTHENTICATED");
  if (!(await consumeChallenge(db, input.challenge, now))) {
    throw new AppError("UNAUTHENTICATED", "This sign-in was completed already; sign in again");
  }
  await attempt.succeeded();
  if (user.banned) throw accountDisabled();
  if (found === "recovery") {
    await recordAnonymousEvent(ctx, { kind: "two_factor.recovery_code_used", actor: subject, target: subject });
  }
  const factor = found === "recovery" ? "recovery_code" : "totp";
  await recordAnonymousEvent(ctx, {
    kind: "sign_in.succeeded",
    actor: subject,
    target: subject,
    details: { method: "two_factor", factor },
  });
  return identityOf(user);
}
