import { allowedRelationships, RELATIONSHIP_TYPES, silentLogger } from "@ams/shared";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";

let stack: Stack;
let archi: Awaited<ReturnType<Stack["signIn"]>>;
let ownerToken: string;
let viewerToken: string;
let owner: Client;
let viewer: Client;
let workspaceId: string;
let elementId: string;

beforeAll(async () => {
  stack = await startStack();
  archi = await stack.signIn("archi");
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "Shared" })).body.id;
  ownerToken = (await stack.apiToken(archi)).token;
  viewerToken = (await stack.apiToken(await stack.signIn("user"))).token;
  owner = await stack.mcpClient(ownerToken);
  viewer = await stack.mcpClient(viewerToken);
  const created = (await owner.callTool({
    name: "create_element",
    arguments: { name: "Claims System", type: "ApplicationComponent" },
  })) as CallToolResult;
  elementId = (created.structuredContent as { id: string }).id;
});
afterAll(async () => {
  await owner?.close();
  await viewer?.close();
  await stack?.close();
});

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** Arguments that fit each mutating tool's schema; the role check comes before any lookup, so ids need not exist. */
const MUTATIONS: Record<string, Record<string, unknown>> = {
  create_element: { name: "X", type: "Node" },
  update_element: { element_id: "id-x", name: "Y" },
  delete_element: { element_id: "id-x" },
  create_relationship: { type: "Serving", source: "id-a", target: "id-b" },
  update_relationship: { relationship_id: "id-x", name: "n" },
  delete_relationship: { relationship_id: "id-x" },
  create_view: { name: "V" },
  update_view: { view_id: "id-x", name: "W" },
  delete_view: { view_id: "id-x" },
  create_node: { view_id: "id-x", element_id: "id-y" },
  update_node: { view_id: "id-x", node_id: "id-y", x: 1 },
  delete_node: { view_id: "id-x", node_id: "id-y" },
  create_connection: { view_id: "id-x", source: "id-a", target: "id-b" },
  update_connection: { view_id: "id-x", connection_id: "id-y", label: "l" },
  delete_connection: { view_id: "id-x", connection_id: "id-y" },
  create_property_definition: { name: "P" },
  update_property_definition: { definition_id: "id-x", name: "Q" },
  delete_property_definition: { definition_id: "id-x" },
  import_model: { xml: "<model/>" },
  save_model: {},
  add_to_view: { view_id: "id-x", element_ids: ["id-y"] },
  auto_layout_view: { view_id: "id-x" },
  create_workspace: { name: "W" },
  rebuild_graph: {},
  create_version: { name: "V" },
  revert_change: { revision: 1 },
  create_draft: { name: "Viewer's proposal" },
  // The owner's draft (made in the test): a viewer reads it but may not submit it.
  submit_draft: { draft_id: "" },
};

describe("roles", () => {
  test("a viewer reads with every read tool", async () => {
    expect((await call(viewer, "get_element", { element_id: elementId })).structuredContent).toMatchObject({
      name: "Claims System",
    });
    expect((await call(viewer, "list_elements")).structuredContent).toMatchObject({ total: 1 });
    expect((await call(viewer, "get_model_info")).isError).toBeFalsy();
    expect((await call(viewer, "export_model")).isError).toBeFalsy();
  });

  test("a viewer's tools/list holds only what it may use: the read tools and switching workspace", async () => {
    const all = (await owner.listTools()).tools;
    const seen = (await viewer.listTools()).tools.map((t) => t.name).sort();
    const expected = all
      .filter((t) => t.annotations?.readOnlyHint || t.name === "activate_workspace")
      .map((t) => t.name)
      .sort();
    expect(seen).toEqual(expected);
    for (const name of Object.keys(MUTATIONS)) expect(seen, name).not.toContain(name);
  });

  test("a viewer cannot mutate: every writing tool answers a tool error with the verb's message, and nothing changes", async () => {
    const { tools } = await owner.listTools();
    const writing = tools
      .filter((t) => !t.annotations?.readOnlyHint && t.name !== "activate_workspace")
      .map((t) => t.name);
    expect(writing.sort()).toEqual(Object.keys(MUTATIONS).sort());
    const draft = await call(owner, "create_draft", { name: "Owner's proposal" });
    const draftId = (draft.structuredContent as { id?: string } | undefined)?.id;
    expect(draftId, textOf(draft)).toBeTruthy();
    MUTATIONS.submit_draft = { draft_id: draftId };
    for (const [name, args] of Object.entries(MUTATIONS)) {
      const result = await call(viewer, name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toMatch(
        /^Your role \(viewer\) does not allow ((model|workspace):write|graph:rebuild)$/,
      );
      expect(result._meta?.["ams/problem"], name).toMatchObject({ code: "FORBIDDEN", status: 403 });
    }
    expect((await call(owner, "list_elements")).structuredContent).toMatchObject({ total: 1 });
  });

  test("the viewer's refusal is the one the tenant gives for the same verb", async () => {
    const mcp = textOf(await call(viewer, "create_element", { name: "X", type: "Node" }));
    // The gateway refuses REST writes of a viewer before the tenant; the tenant itself words it like this:
    const claims = {
      userId: "u",
      username: "u",
      organizationId: archi.organizationId,
      workspaceId,
      role: "viewer" as const,
      platformAdmin: false,
      apiTokenId: null,
    };
    const { createTenantApp } = await import("@ams/tenant");
    const tenant = createTenantApp({ database: stack.database, tokens: stack.tokens, log: silentLogger });
    const res = await tenant.request("/api/elements", {
      method: "POST",
      headers: { "content-type": "application/json", "x-ams-service-token": await stack.tokens.sign(claims, "tenant") },
      body: JSON.stringify({ name: "X", type: "Node" }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toBe(mcp);
  });
});

describe("domain errors carry the REST message", () => {
  test("a relationship ArchiMate does not allow", async () => {
    const refusedType = RELATIONSHIP_TYPES.map((t) => t.name).find(
      (t) => !allowedRelationships("ApplicationComponent", "ApplicationComponent").includes(t),
    )!;
    const args = { type: refusedType, source: elementId, target: elementId };
    const mcp = await call(owner, "create_relationship", args);
    const rest = await stack.rest(ownerToken, "POST", "/api/relationships", args);
    expect(rest.status).toBe(422);
    expect(mcp.isError).toBe(true);
    expect(textOf(mcp)).toBe(rest.body.detail);
    expect(mcp._meta?.["ams/problem"]).toMatchObject({ code: "VALIDATION", status: 422, errors: rest.body.errors });
  });

  test("a missing element", async () => {
    const mcp = await call(owner, "get_element", { element_id: "id-missing" });
    const rest = await stack.rest(ownerToken, "GET", "/api/elements/id-missing");
    expect(rest.status).toBe(404);
    expect(textOf(mcp)).toBe(rest.body.detail);
  });

  test("changing the system property definition", async () => {
    const defs = (await call(owner, "list_property_definitions")).structuredContent as {
      property_definitions: { id: string; is_system: boolean }[];
    };
    const system = defs.property_definitions.find((d) => d.is_system)!;
    const mcp = await call(owner, "update_property_definition", { definition_id: system.id, name: "Mine" });
    const rest = await stack.rest(ownerToken, "PUT", `/api/property-definitions/${system.id}`, { name: "Mine" });
    expect(rest.status).toBe(409);
    expect(textOf(mcp)).toBe(rest.body.detail);
  });
});

describe("invalid arguments are tool errors naming the field; an unknown tool is a protocol error", () => {
  const refused = async (name: string, args: Record<string, unknown>) => {
    const result = await call(owner, name, args);
    expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
    expect(result._meta?.["ams/problem"], name).toMatchObject({ code: "VALIDATION", status: 422 });
    return {
      message: textOf(result),
      errors: (result._meta?.["ams/problem"] as { errors?: { path: string }[] } | undefined)?.errors ?? [],
    };
  };

  test("a wrong type, a missing field, an unknown field, a value out of range", async () => {
    const wrongType = await refused("create_element", { name: 42, type: "Node" });
    expect(wrongType.message).toMatch(/^Invalid arguments for create_element: name/);
    expect(wrongType.errors[0]?.path).toBe("name");
    expect((await refused("get_element", {})).message).toContain("element_id");
    expect((await refused("create_element", { name: "X", type: "Node", colour: "red" })).message).toContain("colour");
    expect((await refused("update_node", { view_id: "v", node_id: "n", w: 0 })).message).toContain("w");
    expect((await refused("list_elements", { limit: 0 })).message).toContain("limit");
  });

  test("an unknown tool is JSON-RPC invalid params, with one 'MCP error' prefix", async () => {
    const err = await owner.callTool({ name: "no_such_tool", arguments: {} }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code).toBe(-32602);
    expect((err as McpError).message).toMatch(/^MCP error -32602: Unknown tool 'no_such_tool'/);
  });

  test("nothing was written by a refused call", async () => {
    await refused("create_element", { name: "Zzq", type: "Node", bogus: true });
    expect((await call(owner, "list_elements", { name: "Zzq" })).structuredContent).toMatchObject({ total: 0 });
  });
});

describe("credentials", () => {
  test("a revoked token gets 401 with WWW-Authenticate at once", async () => {
    const contrib = await stack.signIn("contrib");
    const { id, token } = await stack.apiToken(contrib);
    const client = await stack.mcpClient(token);
    expect((await call(client, "get_model_info")).isError).toBeFalsy();
    expect((await contrib.call("DELETE", `/api/settings/api-tokens/${id}`)).status).toBe(204);
    await expect(client.callTool({ name: "get_model_info", arguments: {} })).rejects.toThrow(/401/);
    const raw = await stack.http("POST", "/mcp/", {
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" },
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toMatch(/^Bearer/);
    await client.close();
  });

  test("only a personal API token opens MCP: a signed-in session's access token, a bad token and none get 401", async () => {
    const login = await fetch(`${stack.base}/api/auth/local/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "archi", password: "archi-dev-password" }),
    });
    const jwt = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("access_token="))!
      .split(";")[0]!
      .slice("access_token=".length);
    for (const authorization of [
      `Bearer ${jwt}`,
      "Bearer ams_pat_0000000000000000000000000000000000000000",
      undefined,
    ]) {
      const res = await stack.http("POST", "/mcp", {
        headers: { accept: "application/json, text/event-stream", ...(authorization ? { authorization } : {}) },
        body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get("www-authenticate"), authorization).toMatch(/^Bearer/);
    }
  });
});

describe("organizations", () => {
  test("a token of another organization sees neither the workspace nor its content", async () => {
    const open = await stack.signIn("open");
    await open.call("POST", "/api/workspaces", { name: "Open's own" });
    const stranger = await stack.mcpClient((await stack.apiToken(open)).token);
    const workspaces = (await call(stranger, "list_workspaces")).structuredContent as { workspaces: { id: string }[] };
    expect(workspaces.workspaces.map((w) => w.id)).not.toContain(workspaceId);
    expect((await call(stranger, "list_elements")).structuredContent).toMatchObject({ total: 0 });

    const foreign = await call(stranger, "get_element", { element_id: elementId });
    const missing = await call(stranger, "get_element", { element_id: "id-missing" });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toBe(`Element '${elementId}' not found`);
    expect(foreign._meta?.["ams/problem"]).toEqual(missing._meta?.["ams/problem"]);

    const activate = await call(stranger, "activate_workspace", { workspace_id: workspaceId });
    expect(activate.isError).toBe(true);
    expect(activate._meta?.["ams/problem"]).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect((await call(stranger, "delete_element", { element_id: elementId })).isError).toBe(true);
    expect((await call(owner, "get_element", { element_id: elementId })).isError).toBeFalsy();
    await stranger.close();
  });

  test("a token pinned to one workspace cannot switch to another of its organization", async () => {
    const other = (await archi.call("POST", "/api/workspaces", { name: "Other" })).body.id as string;
    const pinned = await stack.mcpClient((await stack.apiToken(archi, workspaceId)).token);
    const refused = await call(pinned, "activate_workspace", { workspace_id: other });
    expect(refused.isError).toBe(true);
    expect(refused._meta?.["ams/problem"]).toMatchObject({ code: "NOT_FOUND" });
    expect(
      ((await call(pinned, "activate_workspace", { workspace_id: workspaceId })).structuredContent as { id: string })
        .id,
    ).toBe(workspaceId);
    await pinned.close();
  });

  test("activate_workspace switches what the following calls act on", async () => {
    const second = (await archi.call("POST", "/api/workspaces", { name: "Second" })).body.id as string;
    const client = await stack.mcpClient((await stack.apiToken(archi)).token);
    await call(client, "activate_workspace", { workspace_id: second });
    expect(
      ((await call(client, "get_model_info")).structuredContent as { workspace: { id: string } }).workspace.id,
    ).toBe(second);
    await call(client, "activate_workspace", { workspace_id: workspaceId });
    expect(
      ((await call(client, "get_model_info")).structuredContent as { workspace: { id: string } }).workspace.id,
    ).toBe(workspaceId);
    await client.close();
  });
});
