import { randomBase62, sha256Hex } from "./secrets.ts";

export const API_TOKEN_PREFIX = "ams_pat_";
const BODY_LENGTH = 40;
const SHAPE = /^ams_pat_[0-9A-Za-z]{40}$/;
/** How much of the clear token a listing shows. */
const DISPLAY_LENGTH = API_TOKEN_PREFIX.length + 6;

export type NewApiTokenSecret = { token: string; tokenHash: string; prefix: string };

/** `ams_pat_` + 40 base62 characters (about 238 bits); stored as its SHA-256, shown to the user once. */
export function generateApiToken(): NewApiTokenSecret {
  const token = API_TOKEN_PREFIX + randomBase62(BODY_LENGTH);
  return { token, tokenHash: sha256Hex(token), prefix: token.slice(0, DISPLAY_LENGTH) };
}

export function looksLikeApiToken(value: string): boolean {
  return SHAPE.test(value);
}
