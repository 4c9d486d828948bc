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

    // A person decides: one approval from an owner or editor other than the draft's author is required.
    const strict = await archi.call("PUT", `/api/organizations/${archi.organizationId}`, {
      draft_approvals_required: 1,
    });
    expect(strict.body.draft_approvals_required).toBe(1);
    const id = proposal[0].id;
    expect((await archi.call("POST", `/api/drafts/${id}/submit`)).body.state).toBe("submitted");
    // The token's owner is the draft's author: their own approval does not count.
    expect((await archi.call("POST", `/api/drafts/${id}/reviews`, { decision: "approve" })).status).toBe(201);
    const early = await archi.call("POST", `/api/drafts/${id}/merge`, {});
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain("needs 1 approval");
    const contrib = await stack.signIn("contrib");
    const approved = await contrib.call("POST", `/api/drafts/${id}/reviews`, {
      decision: "approve",
      comment: "Fine by me",
    });
    expect(approved.status).toBe(201);
    expect((await archi.call("GET", `/api/drafts/${id}`)).body).toMatchObject({ approvals: 1, state: "submitted" });
    const stillBase = await stack.rest(
      (await stack.apiToken(archi, workspaceId)).token,
      "GET",
      `/api/elements/${element.id}`,
    );
    expect(stillBase.status).toBe(404);

    const merged = await archi.call("POST", `/api/drafts/${id}/merge`, {});
    expect(merged.status).toBe(200);
    const history = await archi.call("GET", `/api/workspaces/${workspaceId}/history?limit=1`);
    // The reviewer is named; the author's own approval is no review.
    expect(history.body.items[0].summary).toBe("Merged draft 'Proposal by Claude' (reviewed by Demo Contributor)");
    expect(merged.body.summary).toBe(history.body.items[0].summary);
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

describe("a token pinned to the workspace", () => {
  test("works on that workspace's drafts over MCP and REST, never on another workspace or its drafts", async () => {
    const made = await archi.call("POST", "/api/workspaces", { name: "Elsewhere" });
    expect(made.status, made.text).toBe(201);
    const other = made.body.id;
    const theirs = (await archi.call("POST", `/api/workspaces/${other}/drafts`, { name: "Not yours" })).body.id;
    expect(theirs).toBeTruthy();
    const pinned = await stack.apiToken(archi, workspaceId);
    const rest = (method: string, path: string, body?: unknown) => stack.rest(pinned.token, method, path, body);
    const client = await stack.mcpClient(pinned.token);
    try {
      const draft = await data(client, "create_draft", { name: "Pinned plan" });
      expect(draft.base_workspace_id).toBe(workspaceId);
      const portal = await data(client, "create_element", {
        name: "Pinned portal",
        type: "ApplicationComponent",
        workspace_id: draft.id,
      });
      expect((await data(client, "get_element", { element_id: portal.id, workspace_id: draft.id })).name).toBe(
        "Pinned portal",
      );
      const changes = await data(client, "get_draft_changes", { draft_id: draft.id });
      expect(changes.elements.added.map((e: { name: string }) => e.name)).toEqual(["Pinned portal"]);

      // Over REST the same token reads, comments on and submits the draft; its base stays as it was.
      expect((await rest("GET", `/api/drafts/${draft.id}`)).body.changes).toBe(1);
      expect((await rest("GET", `/api/drafts/${draft.id}/changes`)).body.elements.added).toHaveLength(1);
      expect((await rest("GET", `/api/workspaces/${draft.id}/history`)).status).toBe(200);
      expect((await rest("POST", `/api/drafts/${draft.id}/comments`, { text: "Ready" })).status).toBe(201);
      expect((await rest("POST", `/api/drafts/${draft.id}/submit`)).body.state).toBe("submitted");
      expect((await rest("GET", `/api/workspaces/${workspaceId}/drafts`)).body.map((d: any) => d.id)).toContain(
        draft.id,
      );
      expect((await rest("GET", `/api/elements/${portal.id}`)).status).toBe(404);

      // Activating the draft moves the token, not its owner: REST's model routes then write into the draft.
      const before = (await archi.call("GET", "/api/me")).body.active_workspace_id;
      expect((await rest("POST", `/api/workspaces/${draft.id}/activate`)).status).toBe(200);
      expect((await rest("GET", "/api")).body.draft).toMatchObject({ base_workspace_id: workspaceId });
      expect((await rest("POST", "/api/elements", { name: "Over REST", type: "Node" })).status).toBe(201);
      expect((await data(client, "get_model_info")).workspace.id).toBe(draft.id);
      expect((await rest("GET", `/api/elements/${portal.id}`)).body.name).toBe("Pinned portal");
      expect((await archi.call("GET", "/api/me")).body.active_workspace_id).toBe(before);
      const both = (await rest("GET", `/api/drafts/${draft.id}/changes`)).body.elements.added;
      expect(both.map((e: { name: string }) => e.name).sort()).toEqual(["Over REST", "Pinned portal"]);
      // And back (over MCP this time): the workspace itself, still without them.
      expect((await data(client, "activate_workspace", { workspace_id: workspaceId })).id).toBe(workspaceId);
      expect((await rest("GET", `/api/elements/${portal.id}`)).status).toBe(404);
      expect((await rest("GET", "/api")).body.workspace.id).toBe(workspaceId);

      // Another workspace of the same organization, and its draft, stay out of reach.
      for (const [method, path] of [
        ["GET", `/api/drafts/${theirs}`],
        ["GET", `/api/drafts/${theirs}/changes`],
        ["POST", `/api/drafts/${theirs}/merge`],
        ["POST", `/api/drafts/${theirs}/submit`],
        ["GET", `/api/workspaces/${theirs}/history`],
        ["GET", `/api/workspaces/${other}/drafts`],
        ["POST", `/api/workspaces/${other}/drafts`],
        ["POST", `/api/workspaces/${theirs}/activate`],
        ["POST", `/api/workspaces/${other}/activate`],
      ] as const) {
        expect((await rest(method, path, method === "POST" ? { name: "x" } : undefined)).status, path).toBe(404);
      }
      for (const [name, args] of [
        ["get_draft_changes", { draft_id: theirs }],
        ["submit_draft", { draft_id: theirs }],
        ["list_elements", { workspace_id: theirs }],
        ["create_element", { name: "Sneaked", type: "Node", workspace_id: theirs }],
        ["list_drafts", { workspace_id: other }],
        ["create_draft", { name: "Sneaked", workspace_id: other }],
        ["activate_workspace", { workspace_id: theirs }],
      ] as const) {
        const result = await call(client, name, args);
        expect(result.isError, name).toBe(true);
        expect(textOf(result)).toContain("not found");
      }
    } finally {
      await client.close();
    }
  });

  test("an assistant's pinned token reaches the draft it opened by the id its answers name, over MCP and REST", async () => {
    expect(
      (await archi.call("PUT", `/api/organizations/${archi.organizationId}`, { assistants_write_to_drafts: true }))
        .status,
    ).toBe(200);
    const marked = await archi.call("POST", "/api/settings/api-tokens", {
      name: "Pinned Claude",
      organization_id: archi.organizationId,
      workspace_id: workspaceId,
      assistant: true,
    });
    expect(marked.status).toBe(201);
    const client = await stack.mcpClient(marked.body.token);
    try {
      const created = await ok(client, "create_element", { name: "Claims triage", type: "ApplicationComponent" });
      const element = created.structuredContent as { id: string };
      const draftId = /workspace_id ([0-9a-f-]{36})/.exec(allText(created))?.[1];
      expect(draftId).toBeTruthy();
      // The id the answer named works as workspace_id, and again without it (the conversation's draft).
      await ok(client, "update_element", {
        element_id: element.id,
        documentation: "Sorts claims",
        workspace_id: draftId,
      });
      await ok(client, "update_element", { element_id: element.id, name: "Claims triage 2" });
      const changes = await stack.rest(marked.body.token, "GET", `/api/drafts/${draftId}/changes`);
      expect(changes.status).toBe(200);
      expect(changes.body.elements.added.map((e: { name: string }) => e.name)).toEqual(["Claims triage 2"]);
      expect((await data(client, "get_element", { element_id: element.id, workspace_id: draftId })).documentation).toBe(
        "Sorts claims",
      );
      expect((await stack.rest(marked.body.token, "POST", `/api/drafts/${draftId}/submit`)).status).toBe(200);
      expect((await stack.rest(marked.body.token, "GET", `/api/elements/${element.id}`)).status).toBe(404);
    } finally {
      await client.close();
    }
  });
});

test("every draft tool was called", () => {
  expect(DRAFT_TOOLS.filter((name) => !called.has(name))).toEqual([]);
});
