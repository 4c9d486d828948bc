import { hash, verify } from "@node-rs/argon2";

/** argon2id with the OWASP minimum: 19 MiB memory, 2 iterations, 1 lane. */
const params = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@ams/shared";

export function hashPassword(password: string): Promise<string> {
  return hash(password, params);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;

/** Spends the time of one verification, so an unknown username answers as slowly as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  decoy ??= hashPassword("decoy-password-for-unknown-users");
  await verifyPassword(await decoy, password);
}
