import type { Database } from "@ams/db";
import {
  claimJob,
  finishJob,
  type GraphJobQueue,
  heartbeatJob,
  type JobDelivery,
  type JobOutcome,
  releaseJob,
} from "@ams/model";
import { AppError, type Logger, silentLogger } from "@ams/shared";
import type { Driver } from "neo4j-driver";
import { graphRows } from "./graph-rows.ts";
import { readGraphSource } from "./read-source.ts";
import { type SyncOutcome, syncWorkspace } from "./sync.ts";
import { retireSlot, writeGraph } from "./write-graph.ts";

export type GraphWorkerOptions = {
  database: Database;
  neo4j: Driver;
  queue: GraphJobQueue;
  /** Where the driver points, for error messages (never with credentials). */
  neo4jUrl?: string;
  neo4jDatabase?: string;
  /** Readers' grace on the previous slot before it is emptied (GRAPH_RETIRE_GRACE_MS, default 11 s). */
  graceMs?: number;
  /** A running job whose heartbeat is older than this was abandoned (default 30 s; keep it at the queue's ack wait). */
  staleMs?: number;
  /** How often a running job heartbeats (default 2 s). */
  heartbeatMs?: number;
  /** Tries of a job failing for other reasons than an unreachable Neo4j (default 3). */
  maxAttempts?: number;
  batchSize?: number;
  log?: Logger;
  /** Hears how each rebuild run here ended and how long it took (the rebuild duration metric). */
  onJobDone?: (outcome: "succeeded" | "retry" | "failed", seconds: number) => void;
  /** Why Neo4j is known to be down (a supervised local Neo4j restarting): jobs wait for it instead of failing. */
  neo4jDown?: () => string | undefined;
  /** Change entries waiting beyond which a sync rebuilds the graph in full (GRAPH_SYNC_REBUILD_ABOVE, 20 000). */
  rebuildAbove?: number;
  /** Hears each sync that ran (the bench measures change-to-graph from here). */
  onSynced?: (workspaceId: string, outcome: SyncOutcome, ms: number) => void;
};

/**
 * Consumes the graph jobs. A rebuild: claims the job row, reads the model from PostgreSQL, writes a new graph
 * generation and switches to it, records the counts, and only then acknowledges the message. A sync: applies the
 * change groups after the graph's revision (syncWorkspace), or builds a graph never built. Used in-process by the
 * standalone shape and alone by main.ts.
 */
export function createGraphWorker(opts: GraphWorkerOptions) {
  const baseLog = opts.log ?? silentLogger;
  const staleMs = opts.staleMs ?? 30_000;
  const heartbeatMs = opts.heartbeatMs ?? 2_000;
  const graceMs = opts.graceMs ?? 11_000;
  const retirements = new Set<NodeJS.Timeout>();
  let subscription: { stop(): Promise<void> } | undefined;

  /** Jobs that really ran here (a delivery of a gone or busy job is answered without running). */
  const ran = new Set<string>();
  /** Set once stop() began: a delivery that still arrives is handed straight back. */
  let stopping = false;
  /** The job in hand, which stop() hands back when it does not finish by the deadline. */
  let inHand: { job: RunningJob; abandon(): void } | undefined;

  async function handle(delivery: JobDelivery): Promise<JobOutcome> {
    if (stopping) return { kind: "retry", delayMs: 0 };
    if (delivery.job.kind === "sync") return sync(delivery);
    const started = performance.now();
    const job: RunningJob = { jobId: delivery.job.jobId, abandoned: false };
    const abandoned = new Promise<JobOutcome>((resolve) => {
      inHand = {
        job,
        abandon() {
          job.abandoned = true;
          // Redelivered once the row's heartbeat, stopped now, is stale: another worker can claim it then.
          resolve({ kind: "retry", delayMs: staleMs });
        },
      };
    });
    let outcome: JobOutcome;
    try {
      outcome = await Promise.race([run(delivery, job), abandoned]);
    } finally {
      inHand = undefined;
    }
    const didRun = ran.delete(delivery.job.jobId);
    if (opts.onJobDone && didRun) {
      const kind = outcome.kind === "ack" ? "succeeded" : outcome.kind === "term" ? "failed" : "retry";
      opts.onJobDone(kind, (performance.now() - started) / 1000);
    }
    return outcome;
  }

  async function run(delivery: JobDelivery, job: RunningJob): Promise<JobOutcome> {
    const { jobId, workspaceId, requestId } = delivery.job;
    const log = requestId ? baseLog.child({ request_id: requestId }) : baseLog;
    // Neo4j is being restarted: the job stays queued (not claimed, no attempt spent) and runs once it is back.
    if (opts.neo4jDown?.()) return { kind: "retry", delayMs: 2_000 };
    const claimed = await claimJob(opts.database, jobId, staleMs);
    if (claimed === "gone") return { kind: "ack" };
    if (claimed === "busy") return { kind: "retry", delayMs: 1000 };
    ran.add(jobId);
    job.attempts = claimed.attempts;
    log.info(`job ${jobId}: rebuilding workspace ${workspaceId} (attempt ${claimed.attempts})`);
    let lastBeat = Date.now();
    const beat = async () => {
      // A handed-back job beats no more, so that its row turns stale and another worker may claim it.
      if (job.abandoned || Date.now() - lastBeat < heartbeatMs) return;
      lastBeat = Date.now();
      delivery.heartbeat();
      await heartbeatJob(opts.database, jobId);
    };
    const timer = setInterval(() => void beat().catch(() => {}), heartbeatMs);
    try {
      const started = Date.now();
      const source = await readGraphSource(opts.database, workspaceId);
      const result = await writeGraph(opts.neo4j, workspaceId, graphRows(source), {
        revision: source.revision,
        batchSize: opts.batchSize,
        graceMs,
        database: opts.neo4jDatabase,
        // A handed-back job stops writing at the next batch: another worker may claim it, and this one must never
        // switch the graph to a generation the job's row does not name (nor write beside it into the same slot).
        onProgress: async () => {
          if (job.abandoned) throw new Error("handed back at stop: the rebuild stopped before switching the graph");
          await beat();
        },
      });
      await finishJob(opts.database, jobId, {
        state: "succeeded",
        generation: result.generation,
        counts: result.counts,
      });
      log.info(
        `job ${jobId}: generation ${result.generation} in ${Date.now() - started} ms (${JSON.stringify(result.counts)})`,
      );
      if (result.skipped > 0) {
        log.warn(
          `job ${jobId}: ${result.skipped} edges had an end missing from the model and were not drawn (see counts)`,
        );
      }
      if (result.previousSlot) scheduleRetirement(workspaceId, result.previousSlot);
      return { kind: "ack" };
    } catch (err) {
      // Handed back at stop: the failure is this process closing under the job; the row stays for the next worker.
      if (job.abandoned) return { kind: "retry", delayMs: staleMs };
      const unreachable = isUnavailable(err);
      const message = unreachable
        ? `Neo4j is unreachable${opts.neo4jUrl ? ` at ${opts.neo4jUrl}` : ""}: ${(err as Error).message}. The previous graph is unchanged.`
        : err instanceof AppError && err.code === "CONFLICT"
          ? err.message
          : `rebuild failed: ${(err as Error).message ?? String(err)}`;
      // Unreachable while a supervised Neo4j restarts: try again once it is back rather than failing the job.
      const restarting = unreachable && opts.neo4jDown?.() !== undefined;
      const final = !restarting && (unreachable || claimed.attempts >= (opts.maxAttempts ?? 3));
      log.warn(`job ${jobId}: ${message}${final ? "" : " (will retry)"}`);
      await finishJob(opts.database, jobId, { state: final ? "failed" : "queued", error: message });
      if (restarting) return { kind: "retry", delayMs: 2_000 };
      return final ? { kind: "term" } : { kind: "retry", delayMs: 1000 * claimed.attempts };
    } finally {
      clearInterval(timer);
    }
  }

  /**
   * A sync job only says "look at the log": several for one workspace coalesce into whichever runs first, the rest
   * find the graph current. Neo4j down: tried again a few times, then dropped, since the sweep (background.ts) wakes
   * every workspace whose graph is behind once Neo4j answers again.
   */
  async function sync(delivery: JobDelivery): Promise<JobOutcome> {
    const { workspaceId } = delivery.job;
    if (opts.neo4jDown?.()) return { kind: "retry", delayMs: 2_000 };
    const started = performance.now();
    try {
      const outcome = await syncWorkspace(
        {
          database: opts.database,
          neo4j: opts.neo4j,
          neo4jDatabase: opts.neo4jDatabase,
          rebuildAbove: opts.rebuildAbove,
          batchSize: opts.batchSize,
          graceMs,
          onRebuilt: (result) => {
            if (result.previousSlot) scheduleRetirement(workspaceId, result.previousSlot);
          },
        },
        workspaceId,
      );
      const ms = performance.now() - started;
      if (outcome.kind === "built")
        baseLog.info(`sync ${workspaceId}: built in full at revision ${outcome.revision} (${outcome.reason})`);
      opts.onSynced?.(workspaceId, outcome, ms);
      return { kind: "ack" };
    } catch (err) {
      const final = delivery.deliveryCount >= 5;
      baseLog.warn(`sync ${workspaceId}: ${(err as Error).message}${final ? " (left to the sweep)" : " (will retry)"}`);
      return final ? { kind: "term" } : { kind: "retry", delayMs: 500 * delivery.deliveryCount };
    }
  }

  function scheduleRetirement(workspaceId: string, slot: "A" | "B") {
    const timer = setTimeout(() => {
      retirements.delete(timer);
      retireSlot(opts.neo4j, workspaceId, slot, opts.neo4jDatabase).catch((e) =>
        baseLog.warn(`retiring slot ${slot} of ${workspaceId}: ${e.message}`),
      );
    }, graceMs);
    timer.unref();
    retirements.add(timer);
  }

  return {
    handle,
    async start() {
      subscription = await opts.queue.consume(handle);
    },
    /**
     * Stops pulling jobs. The job in hand finishes; with a deadline (epoch ms) it gets until then, after which it is
     * handed back for redelivery (not acknowledged, its heartbeat stopped) and the process may close under it.
     * Resolves false when a job was handed back.
     */
    async stop(deadline?: number): Promise<boolean> {
      stopping = true;
      const current = subscription;
      subscription = undefined;
      let finished = true;
      const stopped = current?.stop();
      if (stopped && deadline !== undefined) {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<"late">((r) => {
          timer = setTimeout(() => r("late"), Math.max(0, deadline - Date.now()));
        });
        const first = await Promise.race([stopped.then(() => "done" as const), late]);
        clearTimeout(timer);
        const overdue = first === "late" ? inHand : undefined;
        if (overdue) {
          finished = false;
          overdue.abandon();
          const { jobId, attempts } = overdue.job;
          if (opts.queue.kind === "memory") {
            // The in-process queue forgets the job at exit: the row goes back to queued for the next start.
            if (attempts !== undefined) {
              await releaseJob(opts.database, jobId, attempts, INTERRUPTED).catch((err) =>
                baseLog.warn(`job ${jobId}: could not be put back to queued: ${(err as Error).message}`),
              );
            }
            baseLog.warn(
              `stopping: the rebuild in hand (job ${jobId}) did not finish in time; it runs again at the next start`,
            );
          } else {
            baseLog.warn(
              `stopping: the rebuild in hand did not finish in time; handed back for another worker in ${staleMs / 1000} s`,
            );
          }
        }
      }
      await stopped;
      for (const t of retirements) clearTimeout(t);
      retirements.clear();
      return finished;
    },
  };
}

/** The job in hand: `attempts` is set once this worker claimed its row. */
type RunningJob = { jobId: string; abandoned: boolean; attempts?: number };

const INTERRUPTED = "interrupted: the process stopped during the rebuild; it runs again at the next start";

export type GraphWorker = ReturnType<typeof createGraphWorker>;

function isUnavailable(err: unknown): boolean {
  const code = (err as { code?: string }).code ?? "";
  return (
    code === "ServiceUnavailable" ||
    code === "SessionExpired" ||
    /ECONNREFUSED|Could not perform discovery|connect ECONN/.test(String((err as Error)?.message))
  );
}
