import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { contextFromClaims, createElement } from "@ams/model";
import { createServiceTokens, type ServiceClaims, silentLogger } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMcpApp } from "../src/index.ts";
import { toolsCallShortcut } from "../src/tools-call-shortcut.ts";
import { postMcp } from "./support/post.ts";
import { SECRET } from "./support/stack.ts";

/**
 * The tools/call shortcut (src/tools-call-shortcut.ts) must answer exactly what the SDK answers, and only when the
 * SDK's answer comes from the same handler. A request without Content-Length always goes the SDK's way (the
 * tools/list shortcut reads only sized bodies), which gives the reference answer.
 */
let database: TestDatabase;
let app: ReturnType<typeof createMcpApp>;
const tokens = createServiceTokens(SECRET);
let ids: { organizationId: string; workspaceId: string };
const claims = (role: ServiceClaims["role"]): ServiceClaims => ({
  userId: "00000000-0000-4000-8000-000000000001",
  username: "ann",
  ...ids,
  role,
  platformAdmin: false,
  apiTokenId: null,
});

beforeAll(async () => {
  database = await createTestDatabase("ams_mcp_call_shortcut");
  app = createMcpApp({ database, tokens, log: silentLogger });
  const [org] = await database.rows<{ id: string }>(
    sql`insert into organizations (slug, name) values ('shortcut', 'Shortcut') returning id`,
  );
  const [ws] = await database.rows<{ id: string }>(
    sql`insert into workspaces (organization_id, name) values (${org!.id}, 'Model') returning id`,
  );
  ids = { organizationId: org!.id, workspaceId: ws!.id };
  const ctx = contextFromClaims(database, claims("editor"));
  await createElement({
    ctx,
    input: { id: "e-1", type: "ApplicationComponent", name: 'CRM "core" ✓', documentation: "line one\nline two" },
  });
  await createElement({ ctx, input: { id: "e-2", type: "Node", name: "Server" } });
});
afterAll(async () => {
  await database?.drop();
});

/** POSTs `body` as `role` (support/post.ts: sized, or streamed for the SDK). */
async function post(role: ServiceClaims["role"], body: string, how: "sized" | "streamed") {
  return postMcp(app, await tokens.sign(claims(role), "mcp"), body, how);
}

const callBody = (id: unknown, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params });

describe("tools/call answered without building an MCP server", () => {
  test("reads, refusals and argument errors: byte for byte what the SDK answers", async () => {
    const cases: [ServiceClaims["role"], string][] = [
      ["viewer", callBody(1, { name: "get_element", arguments: { element_id: "e-1" } })],
      ["editor", callBody('req-"2"', { name: "get_element", arguments: { element_id: "e-2" } })],
      ["viewer", callBody(3, { name: "get_element", arguments: { element_id: "missing" } })],
      ["viewer", callBody(4, { name: "list_elements", arguments: { limit: 1 } })],
      ["viewer", callBody(5, { name: "get_element", arguments: { element_id: "e-1", extra: true } })],
      ["viewer", callBody(6, { name: "get_element" })],
      ["viewer", callBody(7, { name: "create_element", arguments: { name: "Nope", type: "Node" } })],
      ["editor", callBody(8, { name: "get_model_info", arguments: {} })],
    ];
    for (const [role, body] of cases) {
      const shortcut = await post(role, body, "sized");
      const sdk = await post(role, body, "streamed");
      expect(shortcut, `${role}: ${body}`).toEqual(sdk);
      expect(shortcut.status).toBe(200);
    }
    const read = JSON.parse((await post("viewer", cases[0]![1], "sized")).text);
    expect(read.result.structuredContent).toMatchObject({ id: "e-1", name: 'CRM "core" ✓' });
    const refused = JSON.parse((await post("viewer", cases[6]![1], "sized")).text);
    expect(refused.result.isError).toBe(true);
  });

  test("whatever the SDK refuses or words otherwise is still the SDK's answer", async () => {
    const cases: [string, string][] = [
      ["an unknown tool", callBody(1, { name: "no_such_tool", arguments: {} })],
      ["arguments that are a list", callBody(2, { name: "get_element", arguments: ["e-1"] })],
      ["no name", callBody(3, { arguments: { element_id: "e-1" } })],
      ["no params", callBody(4, undefined)],
      ["_meta", callBody(5, { name: "get_element", arguments: { element_id: "e-1" }, _meta: { progressToken: 9 } })],
      ["a bad _meta", callBody(6, { name: "get_element", arguments: { element_id: "e-1" }, _meta: 5 })],
      ["a batch", `[${callBody(7, { name: "get_element", arguments: { element_id: "e-1" } })}]`],
      ["a fractional id", callBody(8.5, { name: "get_element", arguments: { element_id: "e-1" } })],
    ];
    for (const [what, body] of cases) {
      const sized = await post("viewer", body, "sized");
      const streamed = await post("viewer", body, "streamed");
      expect(sized, what).toEqual(streamed);
    }
  });

  test("the shortcut answers only a plain call of a known tool", async () => {
    const call = { claims: claims("viewer"), ctx: { role: "viewer" } } as Parameters<typeof toolsCallShortcut>[1];
    const plain = (params: Record<string, unknown>) => ({ id: 1, method: "tools/call", params });
    expect(await toolsCallShortcut(plain({ name: "no_such_tool" }), call, silentLogger)).toBeUndefined();
    expect(await toolsCallShortcut(plain({ name: "get_element", _meta: {} }), call, silentLogger)).toBeUndefined();
    expect(await toolsCallShortcut({ id: 1, method: "ping" }, call, silentLogger)).toBeUndefined();
    const refused = await toolsCallShortcut(plain({ name: "create_element", arguments: {} }), call, silentLogger);
    expect(refused?.status).toBe(200);
  });
});
