import { openDatabase } from "@ams/db";
import { closeAfterRefusedBody, createServiceTokens, listenHost } from "@ams/shared";
import { serve } from "@hono/node-server";
import { createMcpApp } from "./app.ts";
import { parseEnv } from "./env.ts";

/** The MCP service alone (split deployment): it answers only requests the control gateway signed. */
const env = parseEnv();
const database = await openDatabase({ url: env.DATABASE_URL });
const app = createMcpApp({
  database,
  tokens: createServiceTokens(env.TENANT_JWT_SECRET),
  bodyLimit: env.MCP_BODY_LIMIT,
});
const server = serve({
  fetch: closeAfterRefusedBody(app.fetch),
  port: env.MCP_PORT,
  hostname: listenHost(process.env.HOST),
});
console.log(`mcp listening on :${env.MCP_PORT}, endpoint POST /api/mcp`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close();
    void database.close().then(() => process.exit(0));
  });
}
