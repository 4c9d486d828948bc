import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";
import { DRAFT_TOOLS } from "./support/tool-names.ts";

/**
 * Issue 25 over MCP, through the official SDK client over the gateway on real PostgreSQL: the draft tools, and an
 * organization where assistants write to drafts — an assistant's changes land in a draft of its conversation, the
 * workspace is untouched until a person merges them.
 */
let stack: Stack;
let archi: Awaited<ReturnType<Stack["signIn"]>>;
let plain: Client;
let assistant: Client;
let workspaceId: string;
const called = new Set<string>();

beforeAll(async () => {
  stack = await startStack();
  archi = await stack.signIn("archi");
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "Claims" })).body.id;
  plain = await stack.mcpClient((await stack.apiToken(archi)).token);
  const marked = await archi.call("POST", "/api/settings/api-tokens", {
    name: "Claude",
    organization_id: archi.organizationId,
    assistant: true,
  });
  expect(marked.status).toBe(201);
  expect(marked.body.assistant).toBe(true);
  assistant = await stack.mcpClient(marked.body.token);
  await plain.listTools();
  await assistant.listTools();
}, 120_000);
afterAll(async () => {
  await plain?.close();
  await assistant?.close();
  await stack?.close();
});

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  called.add(name);
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
async function ok(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result;
}
const data = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await ok(client, name, args)).structuredContent as any;
const allText = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

describe("draft tools", () => {
  test("create a draft, work in it with workspace_id, read its changes, submit it", async () => {
    const draft = await data(plain, "create_draft", { name: "Target 2027", workspace_id: workspaceId });
    expect(draft).toMatchObject({ name: "Target 2027", base_workspace_id: workspaceId, state: "open" });
    const listed = await data(plain, "list_drafts", { workspace_id: workspaceId });
    expect(listed.drafts.map((d: { id: string }) => d.id)).toContain(draft.id);
    await data(plain, "create_element", {
      name: "Claims portal",
      type: "ApplicationComponent",
      workspace_id: draft.id,
    });
    const changes = await data(plain, "get_draft_changes", { draft_id: draft.id });
    expect(changes.elements.added.map((e: { name: string }) => e.name)).toEqual(["Claims portal"]);
    const submitted = await ok(plain, "submit_draft", { draft_id: draft.id });
    expect((submitted.structuredContent as { state: string }).state).toBe("submitted");
    expect(allText(submitted)).toContain("await review by a person");
    const unknown = await call(plain, "get_draft_changes", { draft_id: workspaceId });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("not found");
  });
});

describe("assistants write to drafts", () => {
  test("an assistant's writes go into one draft of its conversation; the person merges them", async () => {
    const on = await archi.call("PUT", `/api/organizations/${archi.organizationId}`, {
      assistants_write_to_drafts: true,
    });
    expect(on.status).toBe(200);
    expect(on.body.assistants_write_to_drafts).toBe(true);

    const created = await ok(assistant, "create_element", {
      name: "Fraud scoring",
      type: "ApplicationComponent",
      workspace_id: workspaceId,
    });
    expect(allText(created)).toContain("not into 'Claims'");
    expect(allText(created)).toContain("await review by a person");
    const element = created.structuredContent as { id: string };
    await ok(assistant, "update_element", {
      element_id: element.id,
      documentation: "Scores claims",
      workspace_id: workspaceId,
    });
    // The assistant reads its own proposal back.
    expect(
      (await data(assistant, "get_element", { element_id: element.id, workspace_id: workspaceId })).documentation,
    ).toBe("Scores claims");

    // The workspace itself is untouched; one draft holds both changes, proposed through the assistant's token.
    const drafts = (await archi.call("GET", `/api/workspaces/${workspaceId}/drafts`)).body as any[];
    const proposal = drafts.filter((d) => d.name === "Proposal by Claude");
    expect(proposal).toHaveLength(1);
    expect(proposal[0]).toMatchObject({ changes: 1, author: { via: { kind: "mcp", name: "Claude" } } });
    const inBase = await stack.rest(
      (await stack.apiToken(archi, workspaceId)).token,
      "GET",
      `/api/elements/${element.id}`,
    );
    expect(inBase.status).toBe(404);

    // A token not marked as an assistant's writes as before.
    const direct = await ok(plain, "create_element", { name: "Direct", type: "Node", workspace_id: workspaceId });
    expect(allText(direct)).not.toContain("draft");

    const merged = await archi.call("POST", `/api/drafts/${proposal[0].id}/merge`, {});
    expect(merged.status).toBe(200);
    const after = await stack.rest(
      (await stack.apiToken(archi, workspaceId)).token,
      "GET",
      `/api/elements/${element.id}`,
    );
    expect(after.body).toMatchObject({ name: "Fraud scoring", documentation: "Scores claims" });

    // Its next change opens a new draft: the merged one is closed.
    await ok(assistant, "update_element", {
      element_id: element.id,
      name: "Fraud scoring v2",
      workspace_id: workspaceId,
    });
    const again = (await archi.call("GET", `/api/workspaces/${workspaceId}/drafts`)).body as any[];
    expect(again.filter((d) => d.name === "Proposal by Claude").map((d) => d.state)).toEqual(["merged", "open"]);
  });
});

test("every draft tool was called", () => {
  expect(DRAFT_TOOLS.filter((name) => !called.has(name))).toEqual([]);
});
