import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { createServiceTokens, type ServiceClaims, silentLogger } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createMcpApp } from "../src/index.ts";
import { toolsListShortcut } from "../src/tools-list-shortcut.ts";
import { MCP_HEADERS as HEADERS, postMcp } from "./support/post.ts";
import { SECRET } from "./support/stack.ts";

/**
 * The tools/list shortcut (src/tools-list-shortcut.ts) must answer exactly what the SDK answers, and only when the
 * SDK would. A request without Content-Length always goes the SDK's way, which gives the reference answer.
 */
let database: TestDatabase;
let app: ReturnType<typeof createMcpApp>;
const tokens = createServiceTokens(SECRET);
const claims = (role: ServiceClaims["role"]): ServiceClaims => ({
  userId: "00000000-0000-4000-8000-000000000001",
  username: "ann",
  organizationId: "00000000-0000-4000-8000-000000000002",
  workspaceId: "00000000-0000-4000-8000-000000000003",
  role,
  platformAdmin: false,
  apiTokenId: null,
});

beforeAll(async () => {
  database = await createTestDatabase("ams_mcp_shortcut");
  app = createMcpApp({ database, tokens, log: silentLogger });
});
afterAll(async () => {
  await database?.drop();
});

/** POSTs `body` as `role` (support/post.ts: sized, or streamed for the SDK), with the client's headers. */
async function post(
  role: ServiceClaims["role"],
  body: string,
  how: "sized" | "streamed",
  headers: Record<string, string> = HEADERS,
) {
  return postMcp(app, await tokens.sign(claims(role), "mcp"), body, how, headers);
}

describe("tools/list answered from the serialized list", () => {
  test("for an editor and for a viewer, byte for byte what the SDK answers", async () => {
    for (const role of ["editor", "viewer"] as const) {
      for (const body of [
        '{"jsonrpc":"2.0","id":7,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":"req-\\"8\\"","method":"tools/list","params":{"_meta":{"progressToken":1}}}',
      ]) {
        const shortcut = await post(role, body, "sized");
        const sdk = await post(role, body, "streamed");
        expect(shortcut, `${role}: ${body}`).toEqual(sdk);
        expect(shortcut.status).toBe(200);
      }
    }
    const editor = JSON.parse((await post("editor", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', "sized")).text);
    const viewer = JSON.parse((await post("viewer", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', "sized")).text);
    const names = (r: { result: { tools: { name: string }[] } }) => r.result.tools.map((t) => t.name);
    expect(names(editor)).toContain("create_element");
    expect(names(viewer)).not.toContain("create_element");
    expect(names(viewer)).toContain("get_element");
  });

  test("whatever the SDK refuses or words otherwise is still the SDK's answer", async () => {
    const cases: [string, string, Record<string, string>][] = [
      ["a batch", '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', HEADERS],
      ["a cursor", '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}}', HEADERS],
      ["a notification", '{"jsonrpc":"2.0","method":"tools/list"}', HEADERS],
      ["a fractional id", '{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', HEADERS],
      ["broken JSON", '{"jsonrpc":"2.0","id":1,"method":"tools/list"', HEADERS],
      [
        "no event-stream in Accept",
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        { ...HEADERS, accept: "application/json" },
      ],
      ["text/plain", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { ...HEADERS, "content-type": "text/plain" }],
      [
        "an unknown protocol version",
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        { ...HEADERS, "mcp-protocol-version": "1999-01-01" },
      ],
      ["another method", '{"jsonrpc":"2.0","id":1,"method":"prompts/list"}', HEADERS],
    ];
    for (const [what, body, headers] of cases) {
      const sized = await post("editor", body, "sized", headers);
      const streamed = await post("editor", body, "streamed", headers);
      expect(sized, what).toEqual(streamed);
    }
    expect((await post("editor", cases[6]![1], "sized", cases[6]![2])).status).toBe(415);
    expect((await post("editor", cases[7]![1], "sized", cases[7]![2])).status).toBe(400);
  });

  test("the serialized answer is used only for a sized, plain tools/list request", async () => {
    const call = { claims: claims("editor"), ctx: { role: "editor" } } as Parameters<typeof toolsListShortcut>[1];
    const request = (body: string, sized: boolean) =>
      new Request("http://mcp.internal/api/mcp", {
        method: "POST",
        headers: { ...HEADERS, ...(sized ? { "content-length": String(body.length) } : {}) },
        body,
      });
    const plain = '{"jsonrpc":"2.0","id":3,"method":"tools/list"}';
    expect("response" in (await toolsListShortcut(request(plain, true), call))).toBe(true);
    expect("request" in (await toolsListShortcut(request(plain, false), call))).toBe(true);
    const other = await toolsListShortcut(request('{"jsonrpc":"2.0","id":3,"method":"ping"}', true), call);
    // Not for the shortcut: the SDK gets the request with the body it had.
    expect("request" in other && (await other.request.text())).toBe('{"jsonrpc":"2.0","id":3,"method":"ping"}');
  });
});
