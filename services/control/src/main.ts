import { fileURLToPath } from "node:url";
import { openDatabase } from "@ams/db";
import { createLogger, createServiceTokens, listenHost, type ServiceKeys, serviceKeysFromEnv } from "@ams/shared";
import { createServiceMetrics, registerDatabaseMetrics, runHttpService, runtimeSettings } from "@ams/shared/http";
import { createControlApp } from "./app.ts";
import { startAuditPurge } from "./audit/purge.ts";
import { parseEnv } from "./env.ts";
import { createHttpUpstream, remoteHealthProbes } from "./gateway/http-upstream.ts";
import { startHistoryCompaction } from "./history/compaction.ts";
import { createLive } from "./live/live.ts";
import { seedDemoModel } from "./seed/demo-model.ts";
import { seedAccounts } from "./seed/index.ts";
import { createIdentityProviderDeps } from "./sso/index.ts";
import { composeStandalone } from "./standalone.ts";

/**
 * Control, the edge of the service. With TENANT_URL/MCP_URL set it forwards over HTTP (split deployment);
 * without them it runs tenant, mcp and the graph worker in this process (standalone) on embedded defaults.
 */
const log = createLogger({ service: "control" });
let env: ReturnType<typeof parseEnv>;
let runtime: ReturnType<typeof runtimeSettings>;
let keys: ServiceKeys;
try {
  env = parseEnv();
  runtime = runtimeSettings();
  keys = serviceKeysFromEnv({ ...process.env, TENANT_JWT_SECRET: env.TENANT_JWT_SECRET }, "signer");
} catch (err) {
  log.error((err as Error).message);
  process.exit(1);
}
const database = await openDatabase({
  url: env.DATABASE_URL,
  dataDir: `${env.DATA_DIR}/pglite`,
  maxConnections: runtime.DB_POOL_MAX,
  applicationName: "archimate-control",
});
const { adminCreated } = await seedAccounts(database, env);
if (adminCreated) log.info("seeded the platform admin account 'admin'");
else if (env.SEED_ADMIN_PASSWORD === undefined) {
  log.warn("SEED_ADMIN_PASSWORD is not set: no platform admin is created on an empty database");
}
if (env.DEMO_SEED) {
  const warnings = await seedDemoModel(database);
  if (warnings)
    log.info(`seeded the demo model${warnings.length ? ` (${warnings.length} warnings: ${warnings.join("; ")})` : ""}`);
}
const stopAuditPurge = startAuditPurge({
  database,
  retentionDays: env.AUDIT_RETENTION_DAYS,
  clock: () => new Date(),
  log,
});
const stopHistoryCompaction = env.HISTORY_RETENTION_DAYS
  ? startHistoryCompaction({ database, retentionDays: env.HISTORY_RETENTION_DAYS, clock: () => new Date(), log })
  : () => {};
const tokens = createServiceTokens(keys);
const local = await composeStandalone({ env, database, tokens, split: Boolean(env.TENANT_URL), log });
const metrics = createServiceMetrics("control");
registerDatabaseMetrics(metrics, database);
const live = createLive({ database, log, natsUrl: env.NATS_URL });
const app = createControlApp({
  live,
  metrics,
  database,
  tokens,
  env,
  upstreams: {
    tenant: env.TENANT_URL ? createHttpUpstream(env.TENANT_URL) : local.tenant,
    mcp: env.MCP_URL ? createHttpUpstream(env.MCP_URL) : local.mcp,
  },
  health: env.TENANT_URL ? remoteHealthProbes(env.TENANT_URL) : local.health,
  ...createIdentityProviderDeps({ env, database }),
  log,
  webDir: env.WEB_DIR ?? fileURLToPath(new URL("../../../apps/web/dist", import.meta.url)),
});
runHttpService({
  log,
  fetch: app.fetch,
  port: env.PORT,
  hostname: listenHost(process.env.HOST),
  metrics,
  metricsPort: runtime.METRICS_PORT,
  drainMs: runtime.SHUTDOWN_DRAIN_MS,
  closeMs: runtime.SHUTDOWN_CLOSE_MS,
  // Standalone: the in-process worker pulls no new job; the rebuild in hand finishes within the drain bound or is
  // handed back (to JetStream with NATS_URL; with the in-process queue it is put back to queued and runs at the next
  // start). Split: control runs no worker and this resolves at once.
  // Event streams end first (their browsers reconnect to another replica with Last-Event-ID and miss nothing): an
  // open stream would otherwise hold the drain until its bound.
  stopWork: (deadline) => {
    live.events.drain();
    return local.stopWork(deadline);
  },
  close: async () => {
    stopAuditPurge();
    stopHistoryCompaction();
    await live.close();
    await local.close();
    await database.close();
  },
});
log.info(
  `ArchiMate service listening on http://localhost:${env.PORT} (${env.TENANT_URL ? "split" : "standalone"}, database: ${database.kind}${local.summary ? `, ${local.summary}` : ""})`,
);
