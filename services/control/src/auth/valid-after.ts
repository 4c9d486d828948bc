import type { DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";
import { nextInstantUs } from "./instants.ts";

/**
 * Refuses, on every control replica at once, the user's local access tokens issued before now (users.
 * tokens_valid_after, to the microsecond: instants.ts orders it after every token this process issued before and
 * before every one it issues after, such as the new session of a password change). The users_access_change trigger
 * announces it at commit. Used whenever every session of the user ends (revokeAllSessions): password change or
 * reset, a reused refresh token, an account disabled. Never moves the instant back.
 */
export async function refuseAccessTokensBefore(db: DbOrTx, userId: string, now: Date): Promise<void> {
  const at = sql`'epoch'::timestamptz + ${nextInstantUs(now)}::bigint * interval '1 microsecond'`;
  await db.execute(
    sql`update users set tokens_valid_after = ${at}
      where id = ${userId} and (tokens_valid_after is null or tokens_valid_after < ${at})`,
  );
}
