import type { Database } from "@ams/db";
import { createMcpApp } from "@ams/mcp";
import { loadPluginRegistry } from "@ams/model";
import type { ServiceTokens } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import type { HealthChecks } from "./deps.ts";
import type { ControlEnv } from "./env.ts";
import type { Upstream } from "./gateway/upstream.ts";

export type Standalone = {
  tenant: Upstream;
  mcp?: Upstream;
  health: HealthChecks;
  summary: string;
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
}): Promise<Standalone> {
  const { database, tokens } = opts;
  const plugins = await loadPluginRegistry({ database, root: process.env.PLUGINS_DIR });
  const tenantApp = createTenantApp({ database, tokens, plugins });
  const mcpApp = createMcpApp({ database, tokens, resolveIcon: plugins.resolveIcon });
  return {
    tenant: { fetch: (req) => tenantApp.fetch(req) },
    mcp: { fetch: (req) => mcpApp.fetch(req) },
    health: {},
    summary: "",
    async close() {},
  };
}
