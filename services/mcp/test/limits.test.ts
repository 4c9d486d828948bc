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
  expect(((await declared.json()) as { error: { message: string } }).error.message).toMatch(/too large|exceeds/i);

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
