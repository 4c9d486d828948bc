import { createLogger } from "@ams/shared";
import { MigrationLockError } from "./migrate-lock.ts";
import { migrateDatabase, openDatabase } from "./open.ts";

/**
 * `pnpm migrate` / `node packages/db/src/migrate-cli.ts`: applies pending migrations to DATABASE_URL and exits
 * (0 done, 1 failed, 2 misconfigured). The Helm chart runs it as a pre-install/pre-upgrade Job.
 * MIGRATION_LOCK_TIMEOUT_S (default 300) bounds the wait for the migration lock and for table locks.
 */
const log = createLogger({ service: "migrate" });
const url = process.env.DATABASE_URL;
const timeoutS = Number(process.env.MIGRATION_LOCK_TIMEOUT_S ?? "300");
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  log.error("DATABASE_URL must be the postgres:// URL of the database to migrate");
  process.exit(2);
}
if (!Number.isFinite(timeoutS) || timeoutS <= 0) {
  log.error(
    `MIGRATION_LOCK_TIMEOUT_S must be a positive number of seconds, got "${process.env.MIGRATION_LOCK_TIMEOUT_S}"`,
  );
  process.exit(2);
}
const started = Date.now();
try {
  const database = await openDatabase({ url, migrate: false, maxConnections: 1 });
  try {
    await migrateDatabase(database, url, { lockTimeoutMs: timeoutS * 1000 });
  } finally {
    await database.close();
  }
  log.info("database is up to date", { duration_ms: Date.now() - started });
} catch (err) {
  if (err instanceof MigrationLockError) log.error(`migration failed: ${err.message}`);
  else log.error("migration failed", { err });
  process.exit(1);
}
