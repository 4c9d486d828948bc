import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

/** The advisory lock key that serializes migrations of one database. */
export const MIGRATION_LOCK_KEY = 727274;

/** A migration that could not run: the message says why and what to do. */
export class MigrationLockError extends Error {}

const POLL_MS = 250;

/**
 * Applies the migrations under the advisory lock, waiting at most lockTimeoutMs for it. A DDL statement that waits
 * for a table lock longer than the same bound fails too (lock_timeout) instead of queueing every query behind it.
 */
export async function migratePostgresLocked(url: string, lockTimeoutMs: number, migrationsFolder: string) {
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    connection: { application_name: "archimate-migrate" },
  });
  try {
    await acquire(client, lockTimeoutMs);
    await client`select set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, false)`;
    try {
      await migratePostgres(drizzlePostgres(client), { migrationsFolder });
    } catch (err) {
      if (
        (err as { code?: string }).code === "55P03" ||
        (err as { cause?: { code?: string } }).cause?.code === "55P03"
      ) {
        throw new MigrationLockError(
          `a migration statement waited more than ${lockTimeoutMs / 1000} s for a table lock held by running sessions; ` +
            "nothing was changed by it (each migration is one transaction): retry, or stop the sessions holding the lock",
        );
      }
      throw err;
    } finally {
      await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
  } finally {
    await client.end({ timeout: 5 });
  }
}

async function acquire(client: postgres.Sql, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await client<{ locked: boolean }[]>`select pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) as locked`;
    const locked = row?.locked === true;
    if (locked) return;
    if (Date.now() >= deadline) throw new MigrationLockError(await heldBy(client, timeoutMs));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function heldBy(client: postgres.Sql, timeoutMs: number): Promise<string> {
  const holders = await client<{ pid: number; application_name: string; client_addr: string | null; since: string }[]>`
    select a.pid, a.application_name, a.client_addr::text, a.backend_start::text as since
    from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.objid = ${MIGRATION_LOCK_KEY} and l.granted`;
  const who = holders
    .map((h) => `pid ${h.pid} (${h.application_name || "unnamed"}, ${h.client_addr ?? "local"}, connected ${h.since})`)
    .join(", ");
  return (
    `waited ${timeoutMs / 1000} s for the migration lock (advisory lock ${MIGRATION_LOCK_KEY}); it is held by ` +
    `${who || "a session that is gone now"}. Another migration is running, or one hangs: check it, or end that ` +
    "session with select pg_terminate_backend(<pid>), then run the migration again"
  );
}
