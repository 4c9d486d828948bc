import { type Database, revokedAccessTokens } from "@ams/db";
import { lt, sql } from "drizzle-orm";
import { decodeJwt } from "jose";
import { sha256Hex } from "./secrets.ts";

/**
 * Signed-out access tokens. A sign-out writes the token's hash to the database, where every control replica finds
 * it: this replica refuses the token at once, the others within RECHECK_MS (each remembers a "not revoked" answer
 * that long, so a busy token costs one indexed lookup per second, not one per request).
 */
export type AccessTokenRevocations = {
  revoke(token: string): Promise<void>;
  isRevoked(token: string): Promise<boolean>;
};

export const RECHECK_MS = 1_000;
const MAX_REMEMBERED = 10_000;

export function createAccessTokenRevocations(database: Database, clock: () => Date): AccessTokenRevocations {
  const remembered = new Map<string, { revoked: boolean; until: number }>();
  const remember = (hash: string, revoked: boolean, until: number) => {
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(hash, { revoked, until });
  };
  return {
    async revoke(token) {
      const now = clock();
      let expiresAt = new Date(now.getTime() + 15 * 60 * 1000);
      try {
        const { exp } = decodeJwt(token);
        if (typeof exp === "number") expiresAt = new Date(exp * 1000);
      } catch {}
      if (expiresAt <= now) return;
      const hash = sha256Hex(token);
      await database.db.insert(revokedAccessTokens).values({ tokenHash: hash, expiresAt }).onConflictDoNothing();
      // Entries outlive their token by nothing: each sign-out sweeps the expired ones.
      await database.db.delete(revokedAccessTokens).where(lt(revokedAccessTokens.expiresAt, now));
      remember(hash, true, Number.POSITIVE_INFINITY);
    },
    async isRevoked(token) {
      const hash = sha256Hex(token);
      const now = clock().getTime();
      const known = remembered.get(hash);
      if (known && (known.revoked || known.until > now)) return known.revoked;
      const rows = await database.rows<{ one: number }>(
        sql`select 1 as one from revoked_access_tokens where token_hash = ${hash}`,
      );
      const revoked = rows.length > 0;
      remember(hash, revoked, now + RECHECK_MS);
      return revoked;
    },
  };
}
