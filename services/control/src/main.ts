import { openDatabase } from "@ams/db";
import { closeAfterRefusedBody, createServiceTokens, listenHost } from "@ams/shared";
import { serve } from "@hono/node-server";
import { createControlApp } from "./app.ts";
import { parseEnv } from "./env.ts";
import { createHttpUpstream, remoteHealthProbes } from "./gateway/http-upstream.ts";
import { seedAccounts } from "./seed/index.ts";
import { createIdentityProviderDeps } from "./sso/index.ts";
import { composeStandalone } from "./standalone.ts";

/**
 * Control, the edge of the service. With TENANT_URL/MCP_URL set it forwards over HTTP (split deployment);
 * without them it runs tenant, mcp and the graph worker in this process (standalone) on embedded defaults.
 */
let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` });
const { adminCreated } = await seedAccounts(database, env);
if (adminCreated) console.log("seeded the platform admin account 'admin'");
const tokens = createServiceTokens(env.TENANT_JWT_SECRET);
const local = await composeStandalone({ env, database, tokens, split: Boolean(env.TENANT_URL) });
const app = createControlApp({
  database,
  tokens,
  env,
  upstreams: {
    tenant: env.TENANT_URL ? createHttpUpstream(env.TENANT_URL) : local.tenant,
    mcp: env.MCP_URL ? createHttpUpstream(env.MCP_URL) : local.mcp,
  },
  health: env.TENANT_URL ? remoteHealthProbes(env.TENANT_URL) : local.health,
  ...createIdentityProviderDeps({ env, database }),
});
const server = serve({
  fetch: closeAfterRefusedBody(app.fetch),
  port: env.PORT,
  hostname: listenHost(process.env.HOST),
});
console.log(
  `ArchiMate service listening on http://localhost:${env.PORT} (${env.TENANT_URL ? "split" : "standalone"}, database: ${database.kind}${local.summary ? `, ${local.summary}` : ""})`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    server.close();
    await local.close();
    await database.close();
    process.exit(0);
  });
}
