import { createServiceTokens } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SERVICE_TOKEN_HEADER } from "../src/index.ts";
import { type Stack, startStack } from "./support/stack.ts";
import { ALL_TOOLS } from "./support/tool-names.ts";

let stack: Stack;
let token: string;
let organizationId: string;

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  organizationId = archi.organizationId;
  await archi.call("POST", "/api/workspaces", { name: "Transport" });
  token = (await stack.apiToken(archi)).token;
});
afterAll(() => stack?.close());

const post = (body: unknown, extra: Record<string, string> = {}) =>
  stack.http("POST", "/mcp/", {
    headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", ...extra },
    body,
  });
const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("Streamable HTTP, stateless", () => {
  test.each(["2025-03-26", "2025-06-18", "2025-11-25"])(
    "initialize negotiates %s and opens no session",
    async (version) => {
      const res = await post(initialize(version));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("mcp-session-id")).toBeNull();
      expect(res.body.result.protocolVersion).toBe(version);
      expect(res.body.result.serverInfo.name).toBe("archimate-modeling-service");
      expect(res.body.result.capabilities).toMatchObject({ tools: {}, prompts: {}, resources: {} });
      // Stateless: it can never send list-changed notifications, so it does not claim to.
      expect(res.body.result.capabilities.prompts.listChanged).not.toBe(true);
      expect(res.body.result.capabilities.resources.listChanged).not.toBe(true);
      expect(res.body.result.capabilities.tools.listChanged).not.toBe(true);
      expect(res.body.result.instructions).toContain("archimate-modeling-guide");
    },
  );

  test("every request stands alone: a call without initialize is answered", async () => {
    const res = await post(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_model_info", arguments: {} } },
      {
        "mcp-protocol-version": "2025-03-26",
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(7);
    expect(res.body.result.structuredContent.organization_id).toBe(organizationId);
  });

  test("malformed tools/call params are -32602 naming the field, not -32603 with a schema dump", async () => {
    for (const params of [{ arguments: {} }, { name: 42 }, { name: "get_model_info", arguments: "x" }]) {
      const res = await post(
        { jsonrpc: "2.0", id: 9, method: "tools/call", params },
        {
          "mcp-protocol-version": "2025-03-26",
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.error.code, JSON.stringify(params)).toBe(-32602);
      expect(res.body.error.message).toMatch(/^Invalid tools\/call params: /);
      expect(res.body.error.message).not.toContain("MCP error");
      expect(res.body.error.message).not.toMatch(/^\s*\[/);
    }
    const noName = await post(
      { jsonrpc: "2.0", id: 10, method: "tools/call", params: { arguments: {} } },
      {
        "mcp-protocol-version": "2025-03-26",
      },
    );
    expect(noName.body.error.message).toContain("name:");
  });

  test("initialize without protocolVersion is -32602 saying so, not -32603 with a schema dump", async () => {
    const res = await post({
      jsonrpc: "2.0",
      id: 11,
      method: "initialize",
      params: { capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toMatch(/^Invalid initialize params: protocolVersion: /);
    expect(res.body.error.message).not.toContain("MCP error");
    const noParams = await post({ jsonrpc: "2.0", id: 12, method: "initialize" });
    expect(noParams.body.error.code, noParams.text).toBe(-32602);
    expect(noParams.body.error.message).toMatch(/^Invalid initialize params: /);
  });

  test("a malformed initialize in a batch is refused alone; the batch's other request is answered", async () => {
    const res = await post(
      [
        { jsonrpc: "2.0", id: 21, method: "initialize", params: { protocolVersion: 2025, capabilities: {} } },
        { jsonrpc: "2.0", id: 22, method: "ping" },
      ],
      { "mcp-protocol-version": "2025-03-26" },
    );
    expect(res.status).toBe(200);
    const byId = new Map((res.body as { id: number }[]).map((m) => [m.id, m as any]));
    expect(byId.get(21).error.code).toBe(-32602);
    expect(byId.get(21).error.message).toMatch(/^Invalid initialize params: protocolVersion: .*; clientInfo: /);
    expect(byId.get(22).result).toEqual({});
  });

  test("a JSON-RPC batch (2025-03-26) gets one answer per request", async () => {
    const res = await post(
      [
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_element_types", arguments: {} } },
      ],
      { "mcp-protocol-version": "2025-03-26" },
    );
    expect(res.status).toBe(200);
    const byId = new Map((res.body as { id: number }[]).map((m) => [m.id, m]));
    expect((byId.get(1) as any).result.tools).toHaveLength(ALL_TOOLS.length);
    expect((byId.get(2) as any).result.structuredContent).toEqual({ types: [] });
  });

  test("a notification is accepted with 202 and no body", async () => {
    const res = await post(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "mcp-protocol-version": "2025-03-26" },
    );
    expect(res.status).toBe(202);
    expect(res.text).toBe("");
  });

  test.each(["GET", "DELETE"])("%s answers 405 with Allow: POST", async (method) => {
    const res = await stack.http(method, "/mcp/", {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  test("/mcp without the trailing slash is the same endpoint", async () => {
    const res = await stack.http("POST", "/mcp", {
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-03-26",
      },
      body: { jsonrpc: "2.0", id: 1, method: "ping" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});

describe("the mcp service itself trusts only the gateway's token", () => {
  const direct = async (headers: Record<string, string>) =>
    stack.mcp.request("/api/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
  const claims = {
    userId: "u",
    username: "u",
    organizationId: null,
    workspaceId: null,
    role: "owner" as const,
    platformAdmin: false,
    apiTokenId: null,
  };

  test("no service token, a token for the tenant, or a forged one: 401 with WWW-Authenticate", async () => {
    const forged = await createServiceTokens("another-secret-another-secret-0123456789").sign(claims, "mcp");
    const cases: Record<string, string>[] = [
      {},
      { [SERVICE_TOKEN_HEADER]: await stack.tokens.sign(claims, "tenant") },
      { [SERVICE_TOKEN_HEADER]: forged },
    ];
    for (const headers of cases) {
      const res = await direct(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    }
  });

  test("GET /api/health answers without a caller (probes of the service alone)", async () => {
    const res = await stack.mcp.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      checks: { database: "up", queue: "not configured", graph: "not configured" },
    });
  });

  test("a token with audience mcp is served", async () => {
    const res = await direct({ [SERVICE_TOKEN_HEADER]: await stack.tokens.sign(claims, "mcp") });
    expect(res.status).toBe(200);
  });
});
