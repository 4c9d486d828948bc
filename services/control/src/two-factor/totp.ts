import { Secret, TOTP } from "otpauth";

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const PERIOD = 30;
const DIGITS = 6;
/** A code one step before or after the server's clock still counts (clock drift, typing time). */
const WINDOW = 1;
/** How long a used code must be remembered to refuse it again: the steps it is accepted in, plus one. */
export const CODE_LIFETIME_MS = (2 * WINDOW + 2) * PERIOD * 1000;

/** A new random 160-bit secret (RFC 4226's recommended length), base32 as authenticator apps take it by hand. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI a QR code carries: issuer and account label shown in the app. */
export function totpUri(secretBase32: string, account: string, issuer = "ArchiMate Modeler"): string {
  return totpOf(secretBase32, account, issuer).toString();
}

/** Whether `code` is the secret's code at `now` (one step either side). */
export function checkTotp(secretBase32: string, code: string, now: Date): boolean {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return false;
  return totpOf(secretBase32).validate({ token, timestamp: now.getTime(), window: WINDOW }) !== null;
}

/** The secret's code at `now` (tests and the benchmark act as the authenticator app). */
export function totpCode(secretBase32: string, now: Date): string {
  return totpOf(secretBase32).generate({ timestamp: now.getTime() });
}

function totpOf(secretBase32: string, label = "account", issuer = "ArchiMate Modeler"): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: "SHA1",
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}
