import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Encryption at rest of local TOTP secrets (they are read back to check a code, so they cannot be hashed):
 * AES-256-GCM with a key derived by HKDF-SHA-256 from a server secret (AUTH_JWT_SECRET). The user id is the
 * additional data, so a ciphertext copied onto another account does not decrypt. Format: `v1.<iv>.<tag>.<data>`
 * (base64url). Changing the server secret makes the stored secrets unreadable: those accounts enrol again.
 */
export type SecretBox = {
  seal(plain: string, userId: string): string;
  open(sealed: string, userId: string): string;
};

const VERSION = "v1";

export function createSecretBox(serverSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", serverSecret, "archimate-two-factor", "totp-secret-v1", 32));
  return {
    seal(plain, userId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(userId));
      const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
        .join(".");
    },
    open(sealed, userId) {
      const [version, iv, tag, data] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("Unknown TOTP secret format");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(userId));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
