import { randomInt } from "node:crypto";
import { sha256Hex } from "../auth/secrets.ts";

export const RECOVERY_CODE_COUNT = 10;
/** No look-alikes (0/o, 1/l/i): the codes are read off paper. 31^10 ≈ 2^49.5 each, and each works once. */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten fresh codes as shown to the user: `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = "";
    for (let i = 0; i < 10; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** What is stored and looked up: the SHA-256 of the code without case, spaces or dashes (as typed may differ). */
export function hashRecoveryCode(code: string): string {
  return sha256Hex(code.toLowerCase().replace(/[\s-]+/g, ""));
}
