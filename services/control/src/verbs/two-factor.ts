import { memberships, organizations, twoFactors } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import { and, asc, eq } from "drizzle-orm";
import { recordCallerEvent, subjectOf } from "../audit/record.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { findLocalCredential, findUserById } from "../auth/users.ts";
import { beginCodeAttempt } from "../two-factor/limit.ts";
import {
  confirmEnrolment,
  findLocalTwoFactor,
  removeLocalTwoFactor,
  replaceRecoveryCodes,
  savePendingSecret,
  unusedRecoveryCodes,
} from "../two-factor/local-store.ts";
import { claimTotpCode } from "../two-factor/replay.ts";
import type { ProofInput, RecoveryCodes, TwoFactorEnrolment, TwoFactorStatus } from "../two-factor/schemas.ts";
import { checkSecondFactor, refuseWrongFactor, secretBoxFor } from "../two-factor/second-factor.ts";
import { checkTotp, newTotpSecret, totpUri } from "../two-factor/totp.ts";
import type { SignedInContext } from "./context.ts";

type WithIp<T> = T & { clientIp: string };

/** The caller's two-factor state (both profiles) and the organizations of theirs that require it. */
export async function getTwoFactorStatus({ ctx }: { ctx: SignedInContext }): Promise<TwoFactorStatus> {
  const { db } = ctx.database;
  const userId = ctx.principal.userId;
  const user = await findUserById(db, userId);
  if (!user) throw new AppError("UNAUTHENTICATED", "The account no longer exists");
  const requiredBy = await db
    .select({ organization_id: organizations.id, organization_name: organizations.name })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), eq(organizations.requireTwoFactor, true)))
    .orderBy(asc(organizations.name));
  if (ctx.session) {
    const [row] = await db.select().from(twoFactors).where(eq(twoFactors.userId, userId));
    const codes = row ? (JSON.parse(row.backupCodes) as unknown[]) : [];
    return {
      enabled: user.twoFactorEnabled,
      pending: !!row && !row.verified,
      recovery_codes_left: user.twoFactorEnabled ? codes.length : 0,
      required_by: requiredBy,
    };
  }
  const row = await findLocalTwoFactor(db, userId);
  return {
    enabled: user.twoFactorEnabled,
    pending: !!row && !row.confirmedAt,
    recovery_codes_left: user.twoFactorEnabled ? await unusedRecoveryCodes(db, userId) : 0,
    required_by: requiredBy,
  };
}

/** Starts (or restarts) an enrolment: a new secret, kept encrypted until the first code confirms it. */
export async function startTwoFactorEnrolment({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: WithIp<{ password: string }>;
}): Promise<TwoFactorEnrolment> {
  requireLocalAccount(ctx);
  await provePassword(ctx, input.password, input.clientIp);
  const { userId, username } = ctx.principal;
  const existing = await findLocalTwoFactor(ctx.database.db, userId);
  if (existing?.confirmedAt)
    throw new AppError("CONFLICT", "Two-factor is already on; disable it first to enrol again");
  const secret = newTotpSecret();
  await savePendingSecret(ctx.database.db, userId, secretBoxFor(ctx.env).seal(secret, userId), ctx.clock());
  return { secret, otpauth_uri: totpUri(secret, username) };
}

/** The first code from the app confirms the enrolment: two-factor is on, and the recovery codes are answered once. */
export async function confirmTwoFactorEnrolment({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: { code: string };
}): Promise<RecoveryCodes> {
  requireLocalAccount(ctx);
  const { userId } = ctx.principal;
  const now = ctx.clock();
  const attempt = await beginCodeAttempt(ctx.database, userId, now);
  const row = await findLocalTwoFactor(ctx.database.db, userId);
  if (!row) throw new AppError("CONFLICT", "No enrolment was started; start one first");
  if (row.confirmedAt) throw new AppError("CONFLICT", "Two-factor is already on");
  const secret = secretBoxFor(ctx.env).open(row.secretCiphertext, userId);
  if (!checkTotp(secret, input.code, now)) {
    throw invalid("code", "is not the current code of the authenticator app; check the device's clock");
  }
  await attempt.succeeded();
  const codes = await ctx.database.db.transaction(async (tx) => {
    await claimTotpCode(tx, userId, input.code, now);
    const codes = await confirmEnrolment(tx, userId, now);
    await recordCallerEvent(ctx, { kind: "two_factor.enabled", target: subjectOf(ctx.principal) }, tx);
    return codes;
  });
  return { recovery_codes: codes };
}

/** Two-factor off, proven with the password or a current code (TOTP or recovery code). */
export async function disableTwoFactor({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: WithIp<ProofInput>;
}): Promise<void> {
  requireLocalAccount(ctx);
  await proveIdentity(ctx, input);
  await ctx.database.db.transaction(async (tx) => {
    await removeLocalTwoFactor(tx, ctx.principal.userId, ctx.clock());
    await recordCallerEvent(ctx, { kind: "two_factor.disabled", target: subjectOf(ctx.principal) }, tx);
  });
}

/** Ten new recovery codes (the old ones stop working), proven with the password or a current code. */
export async function regenerateRecoveryCodes({
  ctx,
  input,
}: {
  ctx: SignedInContext;
  input: WithIp<ProofInput>;
}): Promise<RecoveryCodes> {
  requireLocalAccount(ctx);
  const user = await findUserById(ctx.database.db, ctx.principal.userId);
  if (!user?.twoFactorEnabled) throw new AppError("CONFLICT", "Two-factor is off: there are no recovery codes");
  await proveIdentity(ctx, input);
  const codes = await ctx.database.db.transaction(async (tx) => {
    const target = subjectOf(ctx.principal);
    await recordCallerEvent(ctx, { kind: "two_factor.recovery_codes_regenerated", target }, tx);
    return replaceRecoveryCodes(tx, ctx.principal.userId, ctx.clock());
  });
  return { recovery_codes: codes };
}

function requireLocalAccount(ctx: SignedInContext): void {
  if (ctx.session) {
    throw new AppError("FORBIDDEN", "This deployment uses the session profile: two-factor is under /auth/two-factor/*");
  }
  if (ctx.principal.provider !== "local") {
    throw new AppError("FORBIDDEN", "Two-factor of this account is managed by the identity provider");
  }
}

/** The password, under the sign-in failure limit (per username and address). */
async function provePassword(ctx: SignedInContext, password: string, clientIp: string): Promise<void> {
  const { principal } = ctx;
  const attempt = await ctx.limiter.begin({ username: principal.username, ip: clientIp });
  const found = await findLocalCredential(ctx.database.db, principal.username);
  if (!found || found.user.id !== principal.userId)
    throw new AppError("FORBIDDEN", "This account has no local password");
  if (!(await verifyPassword(found.passwordHash, password))) throw invalid("password", "does not match");
  await attempt.succeeded();
}

/** The password or a current second factor (a TOTP code, or a recovery code, which is used up). */
async function proveIdentity(ctx: SignedInContext, input: WithIp<ProofInput>): Promise<void> {
  if (input.password !== undefined) return provePassword(ctx, input.password, input.clientIp);
  const userId = ctx.principal.userId;
  const now = ctx.clock();
  const attempt = await beginCodeAttempt(ctx.database, userId, now);
  const found = await checkSecondFactor(ctx.database.db, secretBoxFor(ctx.env), userId, { code: input.code }, now);
  refuseWrongFactor(found, "code", "VALIDATION");
  await attempt.succeeded();
  if (found === "recovery") {
    await recordCallerEvent(ctx, { kind: "two_factor.recovery_code_used", target: subjectOf(ctx.principal) });
  }
}
