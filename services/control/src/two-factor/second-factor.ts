import type { DbOrTx } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import type { ControlEnv } from "../env.ts";
import { findLocalTwoFactor, useRecoveryCode } from "./local-store.ts";
import { claimTotpCode } from "./replay.ts";
import { createSecretBox, type SecretBox } from "./secret-box.ts";
import { checkTotp } from "./totp.ts";

const boxes = new Map<string, SecretBox>();

/** The local profile's TOTP secret box, keyed from AUTH_JWT_SECRET (derived once per process). */
export function secretBoxFor(env: Pick<ControlEnv, "AUTH_JWT_SECRET">): SecretBox {
  let box = boxes.get(env.AUTH_JWT_SECRET);
  if (!box) {
    box = createSecretBox(env.AUTH_JWT_SECRET);
    boxes.set(env.AUTH_JWT_SECRET, box);
  }
  return box;
}

/** What a presented second factor turned out to be. */
export type FactorCheck = "totp" | "recovery" | "wrong" | "replayed";

/**
 * Checks a local account's second factor: a TOTP code of its confirmed secret (refused when already used within its
 * window) or one of its unused recovery codes (used up by this check). A six-digit value is taken as a TOTP code.
 */
export async function checkSecondFactor(
  db: DbOrTx,
  box: SecretBox,
  userId: string,
  presented: { code?: string; recoveryCode?: string },
  now: Date,
): Promise<FactorCheck> {
  const code = presented.code?.trim();
  if (code !== undefined && /^\d{6}$/.test(code)) {
    const row = await findLocalTwoFactor(db, userId);
    if (!row?.confirmedAt) return "wrong";
    if (!checkTotp(box.open(row.secretCiphertext, userId), code, now)) return "wrong";
    return (await claimTotpCode(db, userId, code, now)) ? "totp" : "replayed";
  }
  const recovery = presented.recoveryCode ?? code;
  if (recovery && (await useRecoveryCode(db, userId, recovery, now))) return "recovery";
  return "wrong";
}

/** Refuses a second factor that was wrong or replayed, naming the field: 422 in settings, 401 at sign-in. */
export function refuseWrongFactor(found: FactorCheck, field: string, code: "UNAUTHENTICATED" | "VALIDATION"): void {
  if (found === "totp" || found === "recovery") return;
  const message =
    found === "replayed"
      ? "was used already; wait for the next code of the authenticator app"
      : field === "recovery_code"
        ? "is not an unused recovery code of this account"
        : "is not valid";
  if (code === "VALIDATION") throw invalid(field, message);
  throw new AppError("UNAUTHENTICATED", `${field}: ${message}`, { errors: [{ path: field, message }] });
}
