import { openDatabase } from "@ams/db";
import { startGraphInBackground } from "@ams/graph";
import { loadPluginRegistry, queuedJobStats } from "@ams/model";
import { createLogger, createServiceTokens, listenHost, type ServiceKeys, serviceKeysFromEnv } from "@ams/shared";
import {
  createServiceMetrics,
  registerDatabaseMetrics,
  registerQueueMetrics,
  runHttpService,
  runtimeSettings,
} from "@ams/shared/http";
import { createTenantApp } from "./app.ts";
import { parseEnv, TenantEnv } from "./env.ts";

/** The tenant alone (split deployment): it answers only requests the control gateway signed. */
const log = createLogger({ service: "tenant" });
const env = parseEnv(TenantEnv);
let runtime: ReturnType<typeof runtimeSettings>;
let keys: ServiceKeys;
try {
  runtime = runtimeSettings();
  keys = serviceKeysFromEnv(process.env, "verifier");
} catch (err) {
  log.error((err as Error).message);
  process.exit(1);
}
const metrics = createServiceMetrics("tenant");
const database = await openDatabase({
  url: env.DATABASE_URL,
  dataDir: `${env.DATA_DIR}/pglite`,
  maxConnections: runtime.DB_POOL_MAX,
  applicationName: "archimate-tenant",
});
const plugins = await loadPluginRegistry({ database, root: env.PLUGINS_DIR, log });
// With NATS_URL the jobs go to the graph-worker service; without it this process runs them on its in-process queue.
const graph = startGraphInBackground({ database, log: createLogger({ service: "graph" }) });
registerDatabaseMetrics(metrics, database);
registerQueueMetrics(metrics, () => queuedJobStats(database));
const app = createTenantApp({
  metrics,
  plugins,
  graph: graph.handle,
  health: graph.health,
  database,
  tokens: createServiceTokens(keys),
  uploadLimit: env.UPLOAD_LIMIT_MB * 1024 * 1024,
  jsonBodyLimit: env.JSON_BODY_LIMIT_KB * 1024,
  importRoots: env.IMPORT_PATHS,
  log,
});
runHttpService({
  log,
  fetch: app.fetch,
  port: env.TENANT_PORT,
  hostname: listenHost(process.env.HOST),
  metrics,
  metricsPort: runtime.METRICS_PORT,
  drainMs: runtime.SHUTDOWN_DRAIN_MS,
  closeMs: runtime.SHUTDOWN_CLOSE_MS,
  // Without NATS_URL this process runs the rebuilds: at SIGTERM it pulls no new job, and the one in hand finishes
  // within the drain bound or is put back to queued for the next start. With NATS_URL it runs none (graph-worker does).
  stopWork: (deadline) => graph.stopConsuming(deadline),
  close: async () => {
    await graph.close();
    await database.close();
  },
});
log.info(`tenant listening on :${env.TENANT_PORT} (${database.kind}, ${graph.summary})`);
