import { openDatabase } from "@ams/db";
import { startGraphInBackground } from "@ams/graph";
import { createLogger, createServiceTokens, listenHost, type ServiceKeys, serviceKeysFromEnv } from "@ams/shared";
import { createServiceMetrics, registerDatabaseMetrics, runHttpService, runtimeSettings } from "@ams/shared/http";
import { createMcpApp } from "./app.ts";
import { parseEnv } from "./env.ts";

/** The MCP service alone (split deployment): it answers only requests the control gateway signed. */
const log = createLogger({ service: "mcp" });
let env: ReturnType<typeof parseEnv>;
let runtime: ReturnType<typeof runtimeSettings>;
let keys: ServiceKeys;
try {
  env = parseEnv();
  runtime = runtimeSettings();
  keys = serviceKeysFromEnv(process.env, "verifier");
} catch (err) {
  log.error((err as Error).message);
  process.exit(1);
}
const database = await openDatabase({
  url: env.DATABASE_URL,
  maxConnections: runtime.DB_POOL_MAX,
  applicationName: "archimate-mcp",
});
const metrics = createServiceMetrics("mcp");
// The graph tools read the Neo4j given by NEO4J_URL (never a local one of their own: the tenant owns that) and queue
// rebuilds on NATS_URL for the graph worker; without NEO4J_URL they answer 503 saying how to enable them.
const graph = startGraphInBackground({ database, env: { ...process.env, NEO4J_LOCAL: "false" }, log });
registerDatabaseMetrics(metrics, database);
const app = createMcpApp({
  metrics,
  database,
  tokens: createServiceTokens(keys),
  bodyLimit: env.MCP_BODY_LIMIT,
  graph: graph.handle,
  log,
});
runHttpService({
  log,
  fetch: app.fetch,
  port: env.MCP_PORT,
  hostname: listenHost(process.env.HOST),
  metrics,
  metricsPort: runtime.METRICS_PORT,
  drainMs: runtime.SHUTDOWN_DRAIN_MS,
  closeMs: runtime.SHUTDOWN_CLOSE_MS,
  close: () => graph.close().then(() => database.close()),
});
log.info(`mcp listening on :${env.MCP_PORT}, endpoint POST /api/mcp`);
