import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";
import { SPEC_TOOLS } from "./support/tool-names.ts";

let stack: Stack;
let client: Client;
let workspaceId: string;
const called = new Set<string>();

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "Claims" })).body.id;
  client = await stack.mcpClient((await stack.apiToken(archi)).token);
  // Listing first makes the SDK client check every structuredContent against the tool's outputSchema.
  await client.listTools();
});
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

async function tool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  called.add(name);
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result;
}
const structured = async (name: string, args: Record<string, unknown> = {}) =>
  (await tool(name, args)).structuredContent as any;

test("a small model built, drawn, rendered, exported and re-imported through every one of the 37 tools", async () => {
  // Workspace and catalogue
  const info = await structured("get_model_info");
  expect(info.workspace.id).toBe(workspaceId);
  expect(info.counts).toMatchObject({ elements: 0, relationships: 0, views: 0 });
  const { workspaces } = await structured("list_workspaces");
  expect(workspaces.find((w: { id: string }) => w.id === workspaceId).active).toBe(true);
  expect((await structured("activate_workspace", { workspace_id: workspaceId })).id).toBe(workspaceId);
  const { viewpoints } = await structured("list_viewpoints");
  expect(viewpoints.map((v: { id: string }) => v.id)).toContain("Application Usage");

  // Property definitions (the system one is listed with is_system)
  const owner = await structured("create_property_definition", { name: "Owner" });
  expect(owner).toMatchObject({ name: "Owner", type: "string", is_system: false });
  expect(await structured("get_property_definition", { definition_id: owner.id })).toEqual(owner);
  const renamed = await structured("update_property_definition", { definition_id: owner.id, name: "Business Owner" });
  expect(renamed.name).toBe("Business Owner");
  const { property_definitions } = await structured("list_property_definitions");
  expect(property_definitions.some((d: { is_system: boolean }) => d.is_system)).toBe(true);
  const scratch = await structured("create_property_definition", { name: "Scratch", type: "number" });

  // Elements
  const customer = await structured("create_element", { name: "Customer", type: "Business Actor" });
  const system = await structured("create_element", {
    name: "Claims System",
    type: "ApplicationComponent",
    properties: { "Business Owner": "Claims department" },
  });
  expect(system).toMatchObject({ type: "ApplicationComponent", properties: { "Business Owner": "Claims department" } });
  const service = await structured("create_element", { name: "Claims Service", type: "ApplicationService" });
  const process = await structured("create_element", { name: "Register Claim", type: "BusinessProcess" });
  expect((await structured("list_element_types")).types).toEqual([
    "ApplicationComponent",
    "ApplicationService",
    "BusinessActor",
    "BusinessProcess",
  ]);
  const filtered = await structured("list_elements", { type: "Application Component" });
  expect(filtered.elements.map((e: { id: string }) => e.id)).toEqual([system.id]);
  const paged = await structured("list_elements", { limit: 1, offset: 1 });
  expect(paged).toMatchObject({ total: 4, omitted: 3 });
  expect(paged.elements[0].id).toBe(system.id);
  expect(await structured("get_element", { element_id: system.id })).toEqual(system);
  const documented = await structured("update_element", {
    element_id: system.id,
    documentation: "Registers and tracks claims",
  });
  expect(documented).toMatchObject({ name: "Claims System", documentation: "Registers and tracks claims" });

  // Relationships
  const realizes = await structured("create_relationship", {
    type: "Realization",
    source: system.id,
    target: service.id,
  });
  const serves = await structured("create_relationship", { type: "Serving", source: service.id, target: process.id });
  const uses = await structured("create_relationship", {
    type: "Association",
    source: customer.id,
    target: process.id,
  });
  expect((await structured("list_relationship_types")).types).toEqual(["Association", "Realization", "Serving"]);
  expect(
    (await structured("list_relationships", { source_id: service.id })).relationships.map((r: { id: string }) => r.id),
  ).toEqual([serves.id]);
  expect(await structured("get_relationship", { relationship_id: realizes.id })).toEqual(realizes);
  expect((await structured("update_relationship", { relationship_id: serves.id, name: "supports" })).name).toBe(
    "supports",
  );
  const touching = await structured("get_element_relationships", { element_id: service.id });
  expect(touching.relationships.map((r: { id: string }) => r.id).sort()).toEqual([realizes.id, serves.id].sort());

  // A view: nodes, connections, render
  const view = await structured("create_view", { name: "Claims handling", viewpoint: "Application Usage" });
  expect(view).toMatchObject({ name: "Claims handling", viewpoint: "Application Usage", nodes: [], connections: [] });
  const nProcess = await structured("create_node", {
    view_id: view.id,
    element_id: process.id,
    x: 40,
    y: 20,
    w: 140,
    h: 60,
  });
  const nService = await structured("create_node", {
    view_id: view.id,
    element_id: service.id,
    x: 40,
    y: 160,
    w: 140,
    h: 60,
  });
  const nSystem = await structured("create_node", { view_id: view.id, element_id: system.id, x: 40, y: 300 });
  expect(nSystem).toMatchObject({ element_id: system.id, w: 120, h: 55 });
  expect(await structured("update_node", { view_id: view.id, node_id: nSystem.id, w: 140, h: 60 })).toMatchObject({
    x: 40,
    y: 300,
    w: 140,
  });
  const cServes = await structured("create_connection", {
    view_id: view.id,
    source: nService.id,
    target: nProcess.id,
    relationship_id: serves.id,
  });
  const cRealizes = await structured("create_connection", {
    view_id: view.id,
    source: nSystem.id,
    target: nService.id,
    relationship_id: realizes.id,
  });
  const bent = await structured("update_connection", {
    view_id: view.id,
    connection_id: cRealizes.id,
    bendpoints: [{ x: 200, y: 250 }],
  });
  expect(bent.bendpoints).toEqual([{ x: 200, y: 250 }]);
  const detail = await structured("get_view", { view_id: view.id });
  expect(detail.nodes.map((n: { id: string }) => n.id)).toEqual([nProcess.id, nService.id, nSystem.id]);
  expect(detail.connections.map((c: { relationship_id: string }) => c.relationship_id)).toEqual([
    serves.id,
    realizes.id,
  ]);
  expect((await structured("list_views")).views.map((v: { id: string }) => v.id)).toEqual([view.id]);
  expect(
    (await structured("update_view", { view_id: view.id, documentation: "How a claim is registered" })).documentation,
  ).toBe("How a claim is registered");

  const rendered = await tool("render_view", { view_id: view.id });
  const image = rendered.content.find((c) => c.type === "image") as { data: string; mimeType: string };
  expect(image.mimeType).toBe("image/png");
  expect(Buffer.from(image.data, "base64").subarray(1, 4).toString()).toBe("PNG");
  const svg = textOf(await tool("render_view", { view_id: view.id, format: "svg" }));
  expect(svg).toMatch(/<svg[\s>][\s\S]*<\/svg>$/);
  expect(svg).toContain("Claims System");

  // Export, persistence no-op
  const exported = textOf(await tool("export_model"));
  expect(exported).toContain("<model");
  for (const id of [customer.id, system.id, service.id, process.id, realizes.id, serves.id, view.id])
    expect(exported).toContain(id);
  expect((await structured("save_model")).saved).toBe(true);

  // Take the model apart...
  await tool("delete_connection", { view_id: view.id, connection_id: cServes.id });
  await tool("delete_node", { view_id: view.id, node_id: nProcess.id });
  await tool("delete_relationship", { relationship_id: uses.id });
  await tool("delete_element", { element_id: customer.id });
  await tool("delete_view", { view_id: view.id });
  await tool("delete_property_definition", { definition_id: scratch.id });
  expect((await structured("get_model_info")).counts).toMatchObject({ elements: 3, relationships: 2, views: 0 });

  // ...and bring the exported one back: same identifiers, same view content, same export.
  const imported = await structured("import_model", { xml: exported });
  expect(imported).toMatchObject({ elements: 4, relationships: 3, views: 1 });
  const back = await structured("get_view", { view_id: view.id });
  expect(back.nodes.map((n: { id: string }) => n.id)).toEqual([nProcess.id, nService.id, nSystem.id]);
  expect(back.connections.map((c: { id: string }) => c.id)).toEqual([cServes.id, cRealizes.id]);
  expect(await structured("get_element", { element_id: customer.id })).toMatchObject({
    name: "Customer",
    type: "BusinessActor",
  });
  expect(textOf(await tool("export_model"))).toBe(exported);

  expect(SPEC_TOOLS.filter((name) => !called.has(name))).toEqual([]);
  expect(called.size).toBe(37);
});
