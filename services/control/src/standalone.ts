import type { Database } from "@ams/db";
import { startGraphInBackground } from "@ams/graph";
import { createMcpApp } from "@ams/mcp";
import { loadPluginRegistry } from "@ams/model";
import { createLogger, type Logger, type ServiceTokens } from "@ams/shared";
import { createTenantApp, readEnv, TenantModelEnv } from "@ams/tenant";
import type { HealthChecks } from "./context.ts";
import type { ControlEnv } from "./env.ts";
import type { Upstream } from "./gateway/upstream.ts";

export type Standalone = {
  tenant: Upstream;
  mcp?: Upstream;
  health: HealthChecks;
  summary: string;
  /**
   * At SIGTERM: the in-process worker takes no new job; the rebuild in hand finishes by `deadline` (epoch ms) or is
   * handed back (to JetStream with NATS_URL, else put back to queued for the next start). False when handed back.
   */
  stopWork(deadline: number): Promise<boolean>;
  close(): Promise<void>;
};

/**
 * The in-process side of the standalone shape: the other services' apps reached through their fetch functions.
 * Not a second implementation: the same apps the split deployment runs, behind the same Upstream interface.
 */
export async function composeStandalone(opts: {
  env: ControlEnv;
  database: Database;
  tokens: ServiceTokens;
  split: boolean;
  /** Control's logger; tenant, mcp and the graph get their own service name in the same shape. */
  log: Logger;
}): Promise<Standalone> {
  const { database, tokens } = opts;
  const model = readEnv(TenantModelEnv);
  const service = (name: string) => createLogger({ service: name });
  const plugins = await loadPluginRegistry({ database, root: model.PLUGINS_DIR, log: service("tenant") });
  // Split: tenant and graph worker run as their own services; control only forwards.
  const graph = opts.split ? undefined : startGraphInBackground({ database, worker: true, log: service("graph") });
  const tenantApp = createTenantApp({
    database,
    tokens,
    plugins,
    graph: graph?.handle,
    uploadLimit: model.UPLOAD_LIMIT_MB * 1024 * 1024,
    jsonBodyLimit: model.JSON_BODY_LIMIT_KB * 1024,
    importRoots: model.IMPORT_PATHS,
    log: service("tenant"),
  });
  const mcpApp = createMcpApp({
    database,
    tokens,
    resolveIcon: plugins.resolveIcon,
    graph: graph?.handle,
    log: service("mcp"),
  });
  return {
    tenant: { fetch: (req) => tenantApp.fetch(req) },
    mcp: { fetch: (req) => mcpApp.fetch(req) },
    health: graph?.health ?? {},
    summary: graph?.summary ?? "",
    stopWork: async (deadline) => (await graph?.stopConsuming(deadline)) ?? true,
    async close() {
      await graph?.close();
    },
  };
}
