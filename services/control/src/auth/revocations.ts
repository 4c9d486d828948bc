import { type Database, revokedAccessTokens } from "@ams/db";
import { lt } from "drizzle-orm";
import { decodeJwt } from "jose";
import type { AccessState } from "./access-state.ts";
import { sha256Hex } from "./secrets.ts";

/**
 * Signed-out access tokens, by id: the token's `jti` (every local token has a unique one), or for an identity
 * provider's token without one, the SHA-256 of the token. A sign-out writes the id to the database; this replica
 * refuses the token at once, every other one when the insert's announcement reaches it (access-state.ts).
 */
export type AccessTokenRevocations = {
  revoke(token: string): Promise<void>;
  isRevoked(token: string): Promise<boolean>;
};

/** The id a sign-out revokes: the jti claim, else `sha256:` and the token's hash. */
export function accessTokenId(token: string): string {
  try {
    const { jti } = decodeJwt(token);
    if (typeof jti === "string" && jti !== "") return jti;
  } catch {}
  return `sha256:${sha256Hex(token)}`;
}

export function createAccessTokenRevocations(
  database: Database,
  state: AccessState,
  clock: () => Date,
): AccessTokenRevocations {
  return {
    async revoke(token) {
      const now = clock();
      let expiresAt = new Date(now.getTime() + 15 * 60 * 1000);
      try {
        const { exp } = decodeJwt(token);
        if (typeof exp === "number") expiresAt = new Date(exp * 1000);
      } catch {}
      if (expiresAt <= now) return;
      const jti = accessTokenId(token);
      await database.db.insert(revokedAccessTokens).values({ jti, expiresAt }).onConflictDoNothing();
      state.noteRevoked(jti);
      // Entries outlive their token by nothing: each sign-out sweeps the expired ones.
      await database.db.delete(revokedAccessTokens).where(lt(revokedAccessTokens.expiresAt, now));
    },
    isRevoked: (token) => state.isRevoked(accessTokenId(token)),
  };
}
