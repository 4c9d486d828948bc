import http from "node:http";
import { generateModel, serializeExchange } from "@ams/model";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack } from "./support/stack.ts";

let stack: Stack;
let token: string;
let client: Client;

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Large" });
  token = (await stack.apiToken(archi)).token;
  client = await stack.mcpClient(token);
});
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

const MiB = 1024 * 1024;
const mcpHeaders = () => ({
  authorization: `Bearer ${token}`,
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "mcp-protocol-version": "2025-03-26",
});
const importCall = (xml: string) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "import_model", arguments: { xml } } });

test("import_model takes a model of more than 10 MB through the gateway", async () => {
  const xml = serializeExchange(generateModel({ elements: 33_000, views: 5 }));
  expect(xml.length).toBeGreaterThan(10 * MiB);
  const result = (await client.callTool({ name: "import_model", arguments: { xml } }, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ elements: 33_000, views: 5 });
  const info = (await client.callTool({ name: "get_model_info", arguments: {} })) as CallToolResult;
  expect(info.structuredContent).toMatchObject({ counts: { elements: 33_000, views: 5 } });
}, 120_000);

test("a body over 50 MiB is refused with 413, declared or streamed, and changes nothing", async () => {
  const body = importCall(`<model>${"a".repeat(50 * MiB)}</model>`);
  const declared = await fetch(`${stack.base}/mcp/`, { method: "POST", headers: mcpHeaders(), body });
  expect(declared.status).toBe(413);
  // Refused at the edge (control), before authentication and unread: a problem naming the limit.
  expect(((await declared.json()) as { detail: string }).detail).toMatch(/too large|exceeds|limit/i);

  const bytes = new TextEncoder().encode(body);
  const streamed = await fetch(`${stack.base}/mcp/`, {
    method: "POST",
    headers: mcpHeaders(),
    body: new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += MiB) controller.enqueue(bytes.subarray(i, i + MiB));
        controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);
  expect(streamed.status).toBe(413);

  const info = (await client.callTool({ name: "get_model_info", arguments: {} })) as CallToolResult;
  expect(info.structuredContent).toMatchObject({ counts: { elements: 33_000 } });
}, 120_000);

test("after a 413 the same kept-alive client's next request is answered (Connection: close on the refusal)", async () => {
  const small = await startStack({ mcpBodyLimit: 64 * 1024 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const archi = await small.signIn("archi");
    await archi.call("POST", "/api/workspaces", { name: "Small limit" });
    const smallToken = (await small.apiToken(archi)).token;
    const { port } = new URL(small.base);
    const send = (body: string) =>
      new Promise<{ status: number; connection?: string; text: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: "127.0.0.1",
            port,
            method: "POST",
            path: "/mcp/",
            agent,
            headers: {
              ...mcpHeaders(),
              authorization: `Bearer ${smallToken}`,
              "content-length": Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (d) => (text += d));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const refused = await send(importCall(`<model>${"a".repeat(200 * 1024)}</model>`));
    expect(refused.status).toBe(413);
    expect(refused.connection).toBe("close");
    expect(JSON.parse(refused.text).error.message).toMatch(/too large|exceeds/i);
    // The same client and agent (one socket at most): the next call must not go into the refused body's remains.
    const next = await send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_model_info", arguments: {} },
      }),
    );
    expect(next.status, next.text).toBe(200);
    expect(JSON.parse(next.text).result.structuredContent).toMatchObject({ counts: { elements: 0 } });
    // And the connection is kept for the calls after it, as usual.
    const again = await send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }));
    expect(again.status).toBe(200);
    expect(again.connection).not.toBe("close");
  } finally {
    agent.destroy();
    await small.close();
  }
}, 120_000);
