import type { AddressInfo } from "node:net";
import { createControlApp, parseEnv, seedAccounts } from "@ams/control";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { createMcpApp } from "@ams/mcp";
import { generateModel, replaceModel } from "@ams/model";
import { createServiceTokens } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { serve } from "@hono/node-server";
import { archiWithWorkspace } from "./demo-user.ts";
import { interleaved, report, section } from "./lib.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";

/**
 * Issue 5: MCP against REST on the same server in the same run. Both go the product's whole way: HTTP into control,
 * API-token authentication and role resolution at the gateway, the inter-service token, then tenant or mcp in-process.
 * The MCP side is a plain JSON-RPC POST (what any client sends once the stateless session is initialized).
 */
export async function benchMcp() {
  const database = await createTestDatabase("ams_bench_mcp");
  const tokens = createServiceTokens(SECRET);
  const tenant = createTenantApp({ database, tokens, log: () => {} });
  const mcp = createMcpApp({ database, tokens, log: () => {} });
  const env = parseEnv({ NODE_ENV: "test", DEMO_SEED: "true", TENANT_JWT_SECRET: SECRET });
  await seedAccounts(database, env);
  const control = createControlApp({
    database,
    tokens,
    env,
    upstreams: { tenant: { fetch: async (r) => tenant.fetch(r) }, mcp: { fetch: async (r) => mcp.fetch(r) } },
    log: { error: () => {} },
  });
  const server = serve({ fetch: control.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const { workspaceId, token } = await archiWithWorkspace(base);
    await database.db.transaction((tx) =>
      replaceModel(database, tx, workspaceId, generateModel({ elements: 565, views: 5 })),
    );
    const [{ n }] = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from elements where workspace_id = ${workspaceId}`,
    );

    const auth = { authorization: `Bearer ${token}` };
    const mcpHeaders = {
      ...auth,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2025-03-26",
    };
    let id = 0;
    const rpc = async (method: string, params?: unknown) => {
      const res = await fetch(`${base}/mcp/`, {
        method: "POST",
        headers: mcpHeaders,
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      });
      const body = (await res.json()) as { result?: { isError?: boolean } };
      if (res.status !== 200 || !body.result || body.result.isError)
        throw new Error(`${method}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    let i = 0;
    const nextId = () => `e-${(i++ * 7919) % n}`;
    const rest = async () => {
      const res = await fetch(`${base}/api/elements/${nextId()}`, { headers: auth });
      if (res.status !== 200) throw new Error(`REST: ${res.status}`);
      return res.text();
    };

    section(`MCP vs REST through the gateway (${n} elements, same server, same run, interleaved)`);
    // Interleaved round by round, so load on a shared machine hits all three alike.
    const [restGet, mcpGet, mcpList] = await interleaved(
      [
        rest,
        () => rpc("tools/call", { name: "get_element", arguments: { element_id: nextId() } }),
        () => rpc("tools/list"),
      ],
      { iterations: 2000, warmup: 200 },
    );
    report("REST GET /api/elements/:id, median", restGet!.median, null, "(the floor of the MCP figures)", true);
    report(
      "MCP tools/call get_element, median",
      mcpGet!.median,
      restGet!.median,
      "<= 1.5 x REST",
      mcpGet!.median <= 1.5 * restGet!.median,
    );
    report(
      "MCP tools/list (37 tools), median",
      mcpList!.median,
      restGet!.median,
      "<= 1.5 x REST",
      mcpList!.median <= 1.5 * restGet!.median,
    );
    report("MCP tools/call get_element, p99", mcpGet!.p99, restGet!.p99, "(informational)", true);
  } finally {
    server.close();
    await database.drop();
  }
}
