import { createHash, timingSafeEqual } from "node:crypto";
import { randomSecret } from "../auth/secrets.ts";

/** RFC 7636 S256: a 256-bit verifier and the base64url SHA-256 of it. */
export function createPkcePair(): { verifier: string; challenge: string } {
  const verifier = randomSecret(32);
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export const createState = () => randomSecret(32);

/** Constant-time comparison of two strings (false when either is missing). */
export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
