import { openDatabase } from "@ams/db";
import { parseGraphEnv, queuedJobStats, startGraphInBackground } from "@ams/graph";
import { createLogger, healthReport, healthStatusCode, listenHost } from "@ams/shared";
import {
  createServiceMetrics,
  rebuildDurationHistogram,
  registerDatabaseMetrics,
  registerQueueMetrics,
  runHttpService,
  runtimeSettings,
} from "@ams/shared/http";

/**
 * The graph worker alone (split deployment): consumes rebuild jobs from NATS JetStream, reads models from
 * PostgreSQL (DATABASE_URL) and writes Neo4j (NEO4J_URL, NEO4J_USER, NEO4J_PASSWORD). Neo4j and NATS are reached in
 * the background and retried until they answer; GET /api/health and /metrics on GRAPH_WORKER_PORT (default 8083).
 */
const log = createLogger({ service: "graph-worker" });
function fail(message: string): never {
  log.error(`graph-worker: ${message}`);
  process.exit(1);
}

/** The settings, read once at start; a bad one stops the process with its message. */
function readSettings() {
  try {
    const config = parseGraphEnv();
    const runtime = runtimeSettings();
    const port = Number(process.env.GRAPH_WORKER_PORT || 8083);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error("GRAPH_WORKER_PORT must be a port number");
    return { config, runtime, port };
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
}
const { config, runtime, port } = readSettings();
if (!config.NATS_URL) {
  fail("NATS_URL is required when the worker runs alone (the in-process queue lives in the standalone process)");
}
if (!config.DATABASE_URL) {
  fail("DATABASE_URL is required (the PostgreSQL database the tenant service writes models to)");
}
const database = await openDatabase({
  url: config.DATABASE_URL,
  migrate: false,
  maxConnections: runtime.DB_POOL_MAX,
  applicationName: "archimate-graph-worker",
});
const metrics = createServiceMetrics("graph-worker");
const rebuilds = rebuildDurationHistogram(metrics);
const graph = startGraphInBackground({
  database,
  worker: true,
  log,
  onJobDone: (outcome, seconds) => rebuilds.observe({ outcome }, seconds),
});
if (!graph.health.graph) fail(graph.handle.unavailable());
registerDatabaseMetrics(metrics, database);
registerQueueMetrics(metrics, () => queuedJobStats(database));
runHttpService({
  log,
  port,
  hostname: listenHost(process.env.HOST),
  metrics,
  health: async () => {
    const report = await healthReport({ database: () => database.ping(), ...graph.health });
    return Response.json(report, { status: healthStatusCode(report) });
  },
  drainMs: runtime.SHUTDOWN_DRAIN_MS,
  closeMs: runtime.SHUTDOWN_CLOSE_MS,
  // At SIGTERM no new job is pulled; the job in hand finishes within the drain bound or is handed back to NATS for
  // redelivery (another worker takes it once its heartbeat is stale). Then NATS is drained and the pools close.
  stopWork: (deadline) => graph.stopConsuming(deadline),
  close: async () => {
    await graph.close();
    await database.close();
  },
});
log.info(`graph-worker consuming rebuild jobs (${graph.summary}); health and metrics on :${port}`);
