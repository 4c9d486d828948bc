import type { Database } from "@ams/db";
import { compactHistory } from "@ams/model";
import type { Logger } from "@ams/shared";

export const COMPACT_EVERY_MS = 3600 * 1000;

/**
 * Compacts the change log's detail older than HISTORY_RETENTION_DAYS at start and then hourly (the audit purge's
 * shape). Every control replica runs it; a workspace is compacted by one at a time (advisory lock) and a second run
 * finds nothing left, so replicas racing cost a little work and nothing else. Answers the function that stops it.
 */
export function startHistoryCompaction(opts: {
  database: Database;
  retentionDays: number;
  clock: () => Date;
  log: Logger;
}): () => void {
  const run = () =>
    compactHistory(opts.database, opts.retentionDays, opts.clock()).then(
      (done) => {
        for (const w of done)
          opts.log.info(
            `history of workspace ${w.workspaceId} compacted through revision ${w.through} ` +
              `(${w.compacted} entries lost their detail; older than ${opts.retentionDays} days)`,
          );
      },
      (err: unknown) => opts.log.warn(`history compaction failed: ${(err as Error).message}`),
    );
  void run();
  const timer = setInterval(run, COMPACT_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
