import { createHash, randomBytes } from "node:crypto";

/** SHA-256 as lower-case hex: how refresh, invitation and API tokens are stored and looked up. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** An opaque URL-safe secret of `bytes` random bytes. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` uniformly random base62 characters (rejection sampling keeps the distribution flat). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
