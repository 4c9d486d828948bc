import type { AddressInfo } from "node:net";
import { createControlApp, parseEnv, seedAccounts } from "@ams/control";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { createMcpApp } from "@ams/mcp";
import { clearRasterCache, generateModel, rasterizeSvg, replaceModel } from "@ams/model";
import { createServiceTokens, silentLogger } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { serve } from "@hono/node-server";
import { archiWithWorkspace } from "./demo-user.ts";
import { withLargeView } from "./exchange.ts";
import { interleaved, must, report, section, verdict } from "./lib.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";

/**
 * Issue 5: MCP against REST on the same server in the same run. Both go the product's whole way: HTTP into control,
 * API-token authentication and role resolution at the gateway, the inter-service token, then tenant or mcp in-process.
 * The MCP side is a plain JSON-RPC POST (what any client sends once the stateless session is initialized).
 */
export async function benchMcp() {
  const database = await createTestDatabase("ams_bench_mcp");
  const tokens = createServiceTokens(SECRET);
  const tenant = createTenantApp({ database, tokens, log: silentLogger });
  const mcp = createMcpApp({ database, tokens, log: silentLogger });
  const env = parseEnv({ NODE_ENV: "test", DEMO_SEED: "true", TENANT_JWT_SECRET: SECRET });
  await seedAccounts(database, env);
  const control = createControlApp({
    database,
    tokens,
    env,
    upstreams: { tenant: { fetch: async (r) => tenant.fetch(r) }, mcp: { fetch: async (r) => mcp.fetch(r) } },
    log: silentLogger,
  });
  const server = serve({ fetch: control.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const { workspaceId, token } = await archiWithWorkspace(base);
    await database.db.transaction((tx) =>
      replaceModel(database, tx, workspaceId, withLargeView(generateModel({ elements: 565, views: 5 }), 200)),
    );
    const [count] = await database.rows<{ n: number }>(
      sql`select count(*)::int as n from elements where workspace_id = ${workspaceId}`,
    );
    const { n } = must(count, "the element count");

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
      const body = (await res.json()) as { result?: { isError?: boolean; content?: { type: string }[] } };
      if (res.status !== 200 || !body.result || body.result.isError)
        throw new Error(`${method}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    let i = 0;
    const nextId = () => `e-${(i++ * 7919) % n}`;
    // The whole body received; parsing it is the client's business, not the server's figure (as in bench
    // model-api): tools/list answers ~180 KB of JSON, and JSON.parse of it in this process cost more than the server.
    const rest = async () => {
      const res = await fetch(`${base}/api/elements/${nextId()}`, { headers: auth });
      if (res.status !== 200) throw new Error(`REST: ${res.status}`);
      return res.arrayBuffer();
    };
    const toolsList = async () => {
      const res = await fetch(`${base}/mcp/`, {
        method: "POST",
        headers: mcpHeaders,
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/list" }),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || !bytes.subarray(0, 20).toString().startsWith('{"result":{"tools":'))
        throw new Error(`tools/list: ${res.status} ${bytes.subarray(0, 200).toString()}`);
      return bytes;
    };

    section(`MCP vs REST through the gateway (${n} elements, same server, same run, interleaved)`);
    // Interleaved round by round, so load on a shared machine hits all three alike.
    const [restGet, mcpGet, mcpList] = await interleaved(
      [rest, () => rpc("tools/call", { name: "get_element", arguments: { element_id: nextId() } }), toolsList],
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
      "MCP tools/list, median",
      mcpList!.median,
      restGet!.median,
      "<= 1.3 x REST",
      mcpList!.median <= 1.3 * restGet!.median,
    );
    report("MCP tools/call get_element, p99", mcpGet!.p99, restGet!.p99, "(informational)", true);
    const listed = await fetch(`${base}/mcp/`, {
      method: "POST",
      headers: mcpHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/list" }),
    });
    const listBytes = (await listed.arrayBuffer()).byteLength;
    const toolCount = ((await rpc("tools/list")) as { result: { tools?: unknown[] } }).result.tools?.length ?? 0;
    verdict(
      "tools/list answer size",
      `tools/list answer: ${toolCount} tools, ${(listBytes / 1024).toFixed(1)} KiB of JSON (informational)`,
      true,
    );

    section("render_view of the 200-node view (issue 14): PNG beside the SVG render as its floor");
    const svgImage = async () => {
      const res = await fetch(`${base}/api/views/v-0/image`, { headers: auth });
      if (res.status !== 200) throw new Error(`REST image: ${res.status}`);
      return res.text();
    };
    // Received as bytes, as tools/list above: the answer is ~900 KB of JSON (the PNG in base64), and the client's
    // UTF-8 decoding and JSON.parse of it (~2 ms) are the client's business, not the server's figure.
    const pngImage = async () => {
      const res = await fetch(`${base}/mcp/`, {
        method: "POST",
        headers: mcpHeaders,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: ++id,
          method: "tools/call",
          params: { name: "render_view", arguments: { view_id: "v-0" } },
        }),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || !bytes.subarray(0, 40).toString().startsWith('{"result":{"content":[{"type":"image"'))
        throw new Error(`render_view answered no image: ${res.status} ${bytes.subarray(0, 200).toString()}`);
    };
    // A view is drawn once per version: the first drawing (cache emptied before each call) is what an assistant
    // waits for after an edit, the repeat what it waits for when it looks at an unchanged view again.
    const firstPng = async () => {
      clearRasterCache();
      await pngImage();
    };
    // The rasterizer's own floor: resvg drawing the very SVG that render_view draws, at the scale it picks (the
    // longest side fitted to 1,568 px), with no request, query or summary around it.
    const drawnSvg = await svgImage();
    const [, svgW, svgH] = /width="([\d.]+)" height="([\d.]+)"/.exec(drawnSvg) ?? [];
    const fitScale = Math.min(1, 1568 / Math.max(Number(svgW), Number(svgH)));
    const resvgAlone = async () => {
      clearRasterCache();
      await rasterizeSvg(drawnSvg, fitScale);
    };
    const [svg, png, again, bare] = await interleaved([svgImage, firstPng, pngImage, resvgAlone], {
      iterations: 60,
      warmup: 5,
    });
    report("resvg alone on the same SVG (the rasterizer's floor), median", bare!.median, null, "(the floor)", true);
    report("REST GET /api/views/:id/image (SVG), median", svg!.median, null, "(the floor)", true);
    report(
      "MCP render_view PNG + summary, first drawing, median",
      png!.median,
      svg!.median,
      "<= 60 ms",
      png!.median <= 60,
    );
    report("MCP render_view PNG + summary, first drawing, p99", png!.p99, svg!.p99, "(informational)", true);
    report(
      "MCP render_view PNG, first drawing, beside SVG render + resvg alone",
      png!.median,
      svg!.median + bare!.median,
      "(informational: what the product adds to its two renderers)",
      true,
    );
    report(
      "MCP render_view PNG + summary, unchanged view again, median",
      again!.median,
      svg!.median,
      "<= 5 ms",
      again!.median <= 5,
    );

    section("add_to_view of 50 elements with layout (issue 14), beside 50 create_node calls it saves");
    const fifty = Array.from({ length: 50 }, (_, k) => `e-${100 + k}`);
    const newView = async () => {
      const res = await fetch(`${base}/api/views`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "bench" }),
      });
      return ((await res.json()) as { id: string }).id;
    };
    const added: number[] = [];
    const oneByOne: number[] = [];
    let connections = 0;
    for (let round = 0; round < 25; round++) {
      const view = await newView();
      let t = performance.now();
      const body = (await rpc("tools/call", {
        name: "add_to_view",
        arguments: { view_id: view, element_ids: fifty },
      })) as { result: { structuredContent: { connections: unknown[] } } };
      if (round >= 3) added.push(performance.now() - t);
      connections = body.result.structuredContent.connections.length;
      if (round % 5 !== 0) continue;
      const other = await newView();
      t = performance.now();
      for (const element_id of fifty) {
        await rpc("tools/call", { name: "create_node", arguments: { view_id: other, element_id } });
      }
      oneByOne.push(performance.now() - t);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    report(
      `MCP add_to_view, 50 elements + ${connections} connections, median`,
      median(added),
      null,
      "<= 150 ms",
      median(added) <= 150,
    );
    report("50 x MCP create_node (no connections), median", median(oneByOne), null, "(informational)", true);
  } finally {
    server.close();
    await database.drop();
  }
}
