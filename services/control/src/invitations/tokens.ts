import { randomSecret, sha256Hex } from "../auth/secrets.ts";

const TOKEN_BYTES = 32;
const SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** 32 random bytes, base64url (43 characters); only its SHA-256 is stored. */
export function generateInvitationToken(): { token: string; tokenHash: string } {
  const token = randomSecret(TOKEN_BYTES);
  return { token, tokenHash: sha256Hex(token) };
}

/** Cheap shape check before any lookup. */
export const looksLikeInvitationToken = (value: string) => SHAPE.test(value);

export const invitationTokenHash = (token: string) => sha256Hex(token);

export function acceptUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/invitations/${token}`;
}
