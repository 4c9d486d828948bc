import { auditEvents, type Database } from "@ams/db";
import type { Logger } from "@ams/shared";
import { lt } from "drizzle-orm";

const DAY_MS = 24 * 3600 * 1000;
export const PURGE_EVERY_MS = 3600 * 1000;

/** Deletes the audit events older than the retention (AUDIT_RETENTION_DAYS); answers how many went. */
export async function purgeAuditEvents(database: Database, retentionDays: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const gone = await database.db
    .delete(auditEvents)
    .where(lt(auditEvents.occurredAt, cutoff))
    .returning({ id: auditEvents.id });
  return gone.length;
}

/**
 * Purges at start and then hourly. Every control replica runs it; the deletes are idempotent, so replicas racing
 * cost a little work and nothing else. Answers the function that stops it.
 */
export function startAuditPurge(opts: {
  database: Database;
  retentionDays: number;
  clock: () => Date;
  log: Logger;
}): () => void {
  const run = () =>
    purgeAuditEvents(opts.database, opts.retentionDays, opts.clock()).then(
      (count) => {
        if (count > 0) opts.log.info(`purged ${count} audit events older than ${opts.retentionDays} days`);
      },
      (err: unknown) => opts.log.warn(`audit purge failed: ${(err as Error).message}`),
    );
  void run();
  const timer = setInterval(run, PURGE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
