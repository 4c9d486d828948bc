import { type Database, type DbOrTx, verifications } from "@ams/db";
import { AppError } from "@ams/shared";
import { twoFactor } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import type { AuditKind } from "../audit/kinds.ts";
import { recordAuditEvent } from "../audit/record.ts";
import { findUserById } from "../auth/users.ts";
import { beginCodeAttempt } from "../two-factor/limit.ts";
import { hashRecoveryCode, newRecoveryCodes } from "../two-factor/recovery-codes.ts";
import { claimTotpCode, releaseTotpCode } from "../two-factor/replay.ts";

const HASHED = /^[0-9a-f]{64}$/;
export const VERIFY_TOTP = "/two-factor/verify-totp";
export const VERIFY_RECOVERY_CODE = "/two-factor/verify-backup-code";

/**
 * better-auth's two-factor plugin as the session profile uses it: TOTP (six digits, 30 s), ten recovery codes in the
 * local profile's format, stored as a JSON list of SHA-256 hashes (the plugin keeps whatever `encrypt` gives; the
 * hook below hashes a presented code before the plugin compares), the secret encrypted with SESSION_SECRET by the
 * plugin. It locks the account's second step after 10 failures for 15 minutes and each challenge after 5.
 */
export function twoFactorPlugin() {
  return twoFactor({
    issuer: "ArchiMate Modeler",
    backupCodeOptions: {
      customBackupCodesGenerate: newRecoveryCodes,
      storeBackupCodes: {
        // Called with the new codes (hashed here) and with the remaining hashes after one is used (kept as they are).
        encrypt: async (json) =>
          JSON.stringify((JSON.parse(json) as string[]).map((c) => (HASHED.test(c) ? c : hashRecoveryCode(c)))),
        decrypt: async (stored) => stored,
      },
    },
  });
}

/** For better-auth's before hook: the recovery-code check's body with the code hashed (the stored form); else none. */
export function withHashedRecoveryCode(path: string, body: unknown): Record<string, unknown> | undefined {
  if (path !== VERIFY_RECOVERY_CODE || !body || typeof body !== "object") return undefined;
  const { code } = body as { code?: unknown };
  return typeof code === "string" ? { ...body, code: hashRecoveryCode(code) } : undefined;
}

/**
 * Runs better-auth's TOTP check under two rules it does not have: a code already used by the account within its
 * window is refused (replay), and wrong codes count against the account in the database (every replica: 10 per 15
 * minutes), beside the plugin's own per-challenge count. The account is the signed-in user (enrolment) or the one
 * the sign-in's two_factor cookie names.
 */
export async function verifyTotpGuarded(opts: {
  database: Database;
  now: Date;
  request: Request;
  signedInUserId: string | null;
  pass: (request: Request) => Promise<Response>;
}): Promise<Response> {
  const { database, now, request, pass } = opts;
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null);
  const code = body && typeof body === "object" && "code" in body && typeof body.code === "string" ? body.code : null;
  const userId = code
    ? (opts.signedInUserId ?? (await challengeUser(database, request.headers.get("cookie") ?? undefined)))
    : null;
  if (!code || !userId) return pass(request);
  const attempt = await beginCodeAttempt(database, userId, now);
  if (!(await claimTotpCode(database.db, userId, code, now))) {
    throw new AppError("UNAUTHENTICATED", "code: was used already; wait for the next code of the authenticator app", {
      errors: [{ path: "code", message: "was used already; wait for the next code of the authenticator app" }],
    });
  }
  const response = await pass(request);
  if (response.ok) await attempt.succeeded();
  else await releaseTotpCode(database.db, userId, code);
  return response;
}

/** Who a two-factor endpoint acts for: the signed-in user, else the one a sign-in's two_factor cookie names. */
export type TwoFactorAccount = { id: string; name: string; enabled: boolean; signedIn: boolean };

export async function twoFactorAccount(
  database: Database,
  cookieHeader: string | undefined,
  signedInUserId: string | null,
): Promise<TwoFactorAccount | null> {
  const id = signedInUserId ?? (await challengeUser(database, cookieHeader));
  if (!id) return null;
  const user = await findUserById(database.db, id);
  return user && { id, name: user.username, enabled: user.twoFactorEnabled, signedIn: signedInUserId !== null };
}

/** The audit events of an answered two-factor endpoint (the account read before better-auth changed it). */
export async function auditTwoFactor(
  db: DbOrTx,
  path: string,
  account: TwoFactorAccount | null,
  ok: boolean,
  address: string,
): Promise<void> {
  if (!account) return;
  const who = { id: account.id, name: account.name };
  const record = (kind: AuditKind, details?: Record<string, unknown>) =>
    recordAuditEvent(db, { kind, actor: ok ? who : null, target: who, address, details });
  const signInStep = path === VERIFY_TOTP || path === VERIFY_RECOVERY_CODE;
  if (signInStep && !account.signedIn) {
    const factor = path === VERIFY_TOTP ? "totp" : "recovery_code";
    if (!ok) return record("sign_in.failed", { method: "two_factor", factor, reason: "wrong_code" });
    if (factor === "recovery_code") await record("two_factor.recovery_code_used");
    return record("sign_in.succeeded", { method: "two_factor", factor });
  }
  if (!ok) return;
  if (path === VERIFY_TOTP && !account.enabled) return record("two_factor.enabled");
  if (path === "/two-factor/disable") return record("two_factor.disabled");
  if (path === "/two-factor/generate-backup-codes") return record("two_factor.recovery_codes_regenerated");
}

/** The user a sign-in's pending second step belongs to: the two_factor cookie names a verification row. */
async function challengeUser(database: Database, cookieHeader: string | undefined): Promise<string | null> {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eqAt = part.indexOf("=");
    const name = part.slice(0, eqAt).trim();
    if (eqAt < 0 || !/^(__Secure-)?ams\.two_factor$/.test(name)) continue;
    const signed = decodeURIComponent(part.slice(eqAt + 1).trim());
    const identifier = signed.slice(0, signed.lastIndexOf("."));
    if (!identifier) return null;
    const [row] = await database.db
      .select({ value: verifications.value })
      .from(verifications)
      .where(eq(verifications.identifier, identifier));
    return row?.value ?? null;
  }
  return null;
}
