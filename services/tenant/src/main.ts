import { openDatabase } from "@ams/db";
import { startGraphInBackground } from "@ams/graph-worker";
import { loadPluginRegistry } from "@ams/model";
import { closeAfterRefusedBody, createServiceTokens, listenHost } from "@ams/shared";
import { serve } from "@hono/node-server";
import { createTenantApp } from "./app.ts";
import { parseEnv, TenantEnv } from "./env.ts";

/** The tenant alone (split deployment): it answers only requests the control gateway signed. */
const env = parseEnv(TenantEnv);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: `${env.DATA_DIR}/pglite` });
const plugins = await loadPluginRegistry({ database, root: env.PLUGINS_DIR });
// With NATS_URL the jobs go to the graph-worker service; without it this process runs them on its in-process queue.
const graph = startGraphInBackground({ database });
const app = createTenantApp({
  plugins,
  graph: graph.handle,
  health: graph.health,
  database,
  tokens: createServiceTokens(env.TENANT_JWT_SECRET),
  uploadLimit: env.UPLOAD_LIMIT_MB * 1024 * 1024,
  jsonBodyLimit: env.JSON_BODY_LIMIT_KB * 1024,
  importRoots: env.IMPORT_PATHS,
});
const server = serve({
  fetch: closeAfterRefusedBody(app.fetch),
  port: env.TENANT_PORT,
  hostname: listenHost(process.env.HOST),
});
console.log(`tenant listening on :${env.TENANT_PORT} (${database.kind}, ${graph.summary})`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    void graph
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
