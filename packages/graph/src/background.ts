import { type Database, sql } from "@ams/db";
import {
  type ChangeFeed,
  createChangeFeed,
  createGraphAnswerCache,
  type GraphDeps,
  type GraphHandle,
  type GraphJobQueue,
  syncJob,
  unfinishedJobs,
} from "@ams/model";
import { createLogger, type Logger, retryWithBackoff } from "@ams/shared";
import neo4j, { type Driver } from "neo4j-driver";
import { type GraphConfig, parseGraphEnv } from "./env.ts";
import { startLocalNeo4j } from "./local-neo4j.ts";
import { type Neo4jChoice, resolveNeo4j } from "./neo4j-config.ts";
import { createMemoryQueue } from "./queue-memory.ts";
import { createNatsQueue } from "./queue-nats.ts";
import { createRecoveringQueue } from "./queue-recovering.ts";
import { ensureGraphSchema } from "./schema.ts";
import { type Supervised, superviseLocalNeo4j } from "./supervise.ts";
import type { SyncOutcome } from "./sync.ts";
import { createGraphWorker, type GraphWorker } from "./worker.ts";

export type BackgroundGraph = {
  /** For the tenant: undefined until Neo4j answered; then the graph deps. */
  handle: GraphHandle;
  /** Health probes: absent when graph features are off (reported "not configured"). */
  health: { queue?: () => Promise<void>; graph?: () => Promise<void> };
  /** One line for the start-up banner. */
  summary: string;
  /** Resolves once the first attempt to reach Neo4j has succeeded or failed (retries go on in the background). */
  ready: Promise<void>;
  /**
   * Stops pulling rebuild jobs; the job in hand may run until `deadline` (epoch ms), then it is handed back for
   * redelivery. Resolves false when a job was handed back. Call close() afterwards.
   */
  stopConsuming(deadline: number): Promise<boolean>;
  /** Stops consuming (the job in hand finishes first, unless stopConsuming handed it back), then closes the connections. */
  close(): Promise<void>;
};

/**
 * The graph side of a process, without holding up its HTTP server: Neo4j (the configured one, or a local one started
 * here) and the job queue (NATS JetStream with NATS_URL, in-process otherwise) are each reached in the background and
 * retried with capped exponential backoff until they answer, so the process is ready with PostgreSQL alone and gains
 * the graph and the queue whenever they come up. After that the drivers reconnect by themselves after an outage.
 * With `worker` (always with the in-process queue) it also consumes the graph jobs here.
 *
 * The graph keeps itself current: a worker process follows the post-commit change feed (createChangeFeed: every
 * committed change group, whichever process wrote it) and turns each wake-up into a sync job on the queue (it only
 * says "look at the log"; NATS de-duplicates by revision, so replicas that all hear a commit queue it once). It also
 * sweeps every GRAPH_SYNC_SWEEP_MS for graphs behind their model (a wake-up lost to a crash, a queue or a Neo4j that
 * was down) and, at start, builds the graphs of the workspaces changed in the last GRAPH_BUILD_RECENT_HOURS that have none yet (the demo
 * model's among them).
 */
export function startGraphInBackground(opts: {
  database: Database;
  env?: Record<string, string | undefined>;
  worker?: boolean;
  log?: Logger;
  /** Hears each rebuild this process ran (the rebuild duration metric). */
  onJobDone?: (outcome: "succeeded" | "retry" | "failed", seconds: number) => void;
  /** Hears each sync this process ran. */
  onSynced?: (workspaceId: string, outcome: SyncOutcome, ms: number) => void;
}): BackgroundGraph {
  const env = opts.env ?? process.env;
  const log = opts.log ?? createLogger({ service: "graph" });
  let choice: Neo4jChoice;
  let config: GraphConfig;
  try {
    // A malformed NEO4J_* or GRAPH_* value is a configuration error: fail the start, as every other bad setting does.
    choice = resolveNeo4j(env);
    config = parseGraphEnv(env);
  } catch (err) {
    throw new Error(`graph: ${(err as Error).message}`);
  }
  if (choice.kind === "none") {
    const message = choice.message;
    return {
      handle: {
        get: () => undefined,
        unavailable: () => `Graph features are not enabled on this deployment. ${message}`,
      },
      health: {},
      summary: "graph off (no Neo4j)",
      ready: Promise.resolve(),
      stopConsuming: async () => true,
      async close() {},
    };
  }
  const backoff = { initialMs: config.DEPENDENCY_RETRY_INITIAL_MS, maxMs: config.DEPENDENCY_RETRY_MAX_MS };
  const controller = new AbortController();
  const queue: GraphJobQueue = config.NATS_URL
    ? createRecoveringQueue(
        () =>
          createNatsQueue({
            url: config.NATS_URL as string,
            stream: config.GRAPH_STREAM,
            subject: config.GRAPH_SUBJECT,
            ackWaitMs: config.GRAPH_ACK_WAIT_MS,
          }),
        { backoff, log, what: `NATS at ${config.NATS_URL}` },
      )
    : createMemoryQueue();
  let deps: GraphDeps | undefined;
  let failure: string | undefined;
  let driver: Driver | undefined;
  let local: Supervised | undefined;
  let worker: GraphWorker | undefined;
  let firstDone: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    firstDone = resolve;
  });
  let sweeper: NodeJS.Timeout | undefined;
  let feed: ChangeFeed | undefined;

  const connecting = (async () => {
    let url: string;
    let auth: { user: string; password: string };
    if (choice.kind === "local") {
      // A local Neo4j that does not start (no Java, no Maven) is a set-up matter, not an outage: said once.
      try {
        log.info(`starting a local Neo4j in ${choice.dataDir}`);
        const options = {
          dataDir: choice.dataDir,
          boltPort: choice.boltPort,
          password: choice.password,
          heap: choice.heap,
          pageCache: choice.pageCache,
          cpus: choice.cpus,
          boltThreads: choice.boltThreads,
          nice: choice.nice,
          // Niced on a busy machine, the JVM may take minutes to boot; the server answers meanwhile (graph: 503).
          startTimeoutMs: 600_000,
        };
        const first = await startLocalNeo4j(options);
        url = first.url;
        auth = { user: first.user, password: first.password };
        const again = { ...options, boltPort: Number(new URL(first.url).port), password: first.password };
        local = superviseLocalNeo4j(first, () => startLocalNeo4j(again), log);
      } catch (err) {
        failure = (err as Error).message;
        log.warn(`graph features are unavailable: ${failure}`);
        return;
      }
    } else {
      url = choice.url;
      auth = { user: choice.user, password: choice.password };
    }
    const d = neo4j.driver(url, neo4j.auth.basic(auth.user, auth.password), { disableLosslessIntegers: false });
    driver = d;
    const reached = await retryWithBackoff(
      async () => {
        await d.verifyConnectivity({ database: config.NEO4J_DATABASE });
        // Only a process that writes the graph creates its schema: tenant and mcp beside a graph worker only read,
        // and may log in as a read-only user (Neo4j Enterprise's reader role), which cannot create indexes.
        if (queue.kind === "memory" || opts.worker) await ensureGraphSchema(d, config.NEO4J_DATABASE);
        return true;
      },
      {
        signal: controller.signal,
        backoff,
        onFailure: (err, retryInMs, failures) => {
          failure = `${(err as Error).message} (trying again in ${Math.round(retryInMs / 100) / 10} s)`;
          if (failures === 1 || failures % 10 === 0) log.warn(`Neo4j at ${url} is not reachable: ${failure}`);
          firstDone();
        },
      },
    );
    // Stopped while connecting: no worker is started under a process that is closing.
    if (!reached || controller.signal.aborted) return;
    failure = undefined;
    deps = {
      driver: d,
      queue,
      database: config.NEO4J_DATABASE,
      rebuildWaitMs: config.GRAPH_REBUILD_WAIT_MS,
      queryTimeoutMs: config.EXPLORE_TIMEOUT_MS,
      rowCap: config.EXPLORE_ROW_CAP,
      down: local?.down,
      answers: createGraphAnswerCache(config.EXPLORE_CACHE_MB * 1024 * 1024),
    };
    if (queue.kind === "memory" || opts.worker) {
      worker = createGraphWorker({
        database: opts.database,
        neo4j: d,
        queue,
        neo4jUrl: url,
        neo4jDatabase: config.NEO4J_DATABASE,
        graceMs: config.GRAPH_RETIRE_GRACE_MS,
        staleMs: config.GRAPH_ACK_WAIT_MS,
        batchSize: config.GRAPH_BATCH_SIZE,
        log,
        neo4jDown: local?.down,
        onJobDone: opts.onJobDone,
        onSynced: opts.onSynced,
        rebuildAbove: config.GRAPH_SYNC_REBUILD_ABOVE,
      });
      await worker.start();
      if (queue.kind === "memory") await takeUpUnfinished(queue);
      // After each commit: wake the sync. A queue not reachable now is no error (the sweep catches up).
      try {
        feed = await createChangeFeed(opts.database);
        feed.subscribe((workspaceId, revision) => {
          queue.enqueue(syncJob(workspaceId, { revision })).catch(() => {});
        });
      } catch (err) {
        log.warn(`the change feed could not be followed (${(err as Error).message}); the sweep keeps graphs current`);
      }
      if (config.GRAPH_BUILD_RECENT_HOURS > 0)
        await buildRecent(d, config.GRAPH_BUILD_RECENT_HOURS).catch((err) =>
          log.warn(`graphs to build at start: ${(err as Error).message}`),
        );
      const sweepNow = () =>
        sweep(d)
          .catch((err) => log.warn(`graph sync sweep: ${(err as Error).message}`))
          .finally(() => {
            if (!controller.signal.aborted) sweeper = setTimeout(sweepNow, config.GRAPH_SYNC_SWEEP_MS).unref();
          });
      void sweepNow();
    }
    log.info(
      `graph on ${url}, jobs on ${queue.kind === "nats" ? `NATS stream ${config.GRAPH_STREAM}` : "the in-process queue"}`,
    );
  })().finally(() => firstDone());

  /**
   * The in-process queue starts empty: the jobs a previous process of this instance left queued (stopped before it
   * ran them, or released at a stop) or running (it died under them) are queued again. A running one is taken over
   * once its heartbeat is stale (GRAPH_ACK_WAIT_MS), never while a live process still runs it.
   */
  async function takeUpUnfinished(memory: GraphJobQueue) {
    try {
      const left = await unfinishedJobs(opts.database);
      for (const job of left) await memory.enqueue({ jobId: job.id, workspaceId: job.workspace_id });
      if (left.length > 0) log.info(`queued again ${left.length} rebuild job(s) a previous process left unfinished`);
    } catch (err) {
      log.warn(`the rebuild jobs left unfinished could not be read: ${(err as Error).message}`);
    }
  }

  /** Wakes the sync of every graph behind its model (or built before graphs recorded their revision). */
  async function sweep(d: Driver) {
    if (local?.down?.()) return;
    const { records } = await d.executeQuery(
      "MATCH (m:GraphMeta) RETURN m.workspace_id AS ws, m.revision AS revision",
      {},
      { database: config.NEO4J_DATABASE, routing: neo4j.routing.READ },
    );
    if (records.length === 0) return;
    const graphs = new Map(records.map((r) => [String(r.get("ws")), r.get("revision")]));
    const models = await opts.database.rows<{ id: string; revision: string | number }>(
      sql`select id, revision from workspaces
          where id in (select json_array_elements_text(${JSON.stringify([...graphs.keys()])}::json)::uuid)`,
    );
    for (const m of models) {
      const revision = graphs.get(m.id);
      if (revision === null || Number(revision) < Number(m.revision))
        await queue.enqueue(syncJob(m.id, { revision: Number(m.revision) })).catch(() => {});
    }
  }

  /** The workspaces changed in the last `hours` whose graph was never built: built now, before anyone asks. */
  async function buildRecent(d: Driver, hours: number) {
    const recent = await opts.database.rows<{ id: string }>(
      sql`select w.id from workspaces w
          where exists (select 1 from change_groups g where g.workspace_id = w.id and g.created_at > now() - ${hours}::int * interval '1 hour')
          order by w.updated_at desc limit 20`,
    );
    if (recent.length === 0) return;
    const { records } = await d.executeQuery(
      "MATCH (m:GraphMeta) WHERE m.workspace_id IN $ids RETURN m.workspace_id AS ws",
      { ids: recent.map((r) => r.id) },
      { database: config.NEO4J_DATABASE, routing: neo4j.routing.READ },
    );
    const built = new Set(records.map((r) => String(r.get("ws"))));
    for (const r of recent) if (!built.has(r.id)) await queue.enqueue(syncJob(r.id, "build")).catch(() => {});
  }

  const notReady = () =>
    failure
      ? `The graph database could not be started or reached: ${failure}`
      : "The graph database is starting; try again in a moment";
  const where = choice.kind === "local" ? `local Neo4j in ${choice.dataDir}` : choice.url;
  return {
    handle: { get: () => deps, unavailable: notReady },
    health: {
      graph: async () => {
        if (!deps) throw new Error(notReady());
        const down = deps.down?.();
        if (down) throw new Error(down);
        await deps.driver.verifyConnectivity({ database: deps.database });
      },
      queue: () => queue.ping(),
    },
    summary: `graph: ${where}, queue: ${config.NATS_URL ? `NATS at ${config.NATS_URL}` : "in-process"} (connecting in the background)`,
    ready,
    async stopConsuming(deadline) {
      controller.abort();
      clearTimeout(sweeper);
      await feed?.close();
      // A local Neo4j still starting is not waited for beyond the bound (close() waits for it).
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<void>((r) => {
        timer = setTimeout(r, Math.max(0, deadline - Date.now()));
      });
      await Promise.race([connecting.catch(() => {}), bound]);
      clearTimeout(timer);
      return (await worker?.stop(deadline)) ?? true;
    },
    async close() {
      controller.abort();
      clearTimeout(sweeper);
      await feed?.close();
      await connecting.catch(() => {});
      await worker?.stop();
      await queue.close();
      await driver?.close();
      await local?.stop();
    },
  };
}
