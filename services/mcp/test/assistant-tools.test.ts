import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";
import { ADDED_TOOLS, DRAFT_TOOLS, GRAPH_TOOLS, HISTORY_TOOLS } from "./support/tool-names.ts";

/** The tools issue 14 added, each called at least once through the official SDK client over the gateway. */
let stack: Stack;
let client: Client;
let workspaceId: string;
const called = new Set<string>();

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "Assistant" })).body.id;
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

test("list_metamodel_element_types lists every type, in use or not, optionally one layer", async () => {
  const all = await structured("list_metamodel_element_types");
  expect(all.element_types.length).toBeGreaterThan(55);
  expect(all.element_types).toContainEqual({
    name: "ApplicationComponent",
    label: "Application Component",
    layer: "Application",
  });
  const business = await structured("list_metamodel_element_types", { layer: "business" });
  expect(business.element_types.every((t: { layer: string }) => t.layer === "Business")).toBe(true);
  const bad = (await client.callTool({
    name: "list_metamodel_element_types",
    arguments: { layer: "Nope" },
  })) as CallToolResult;
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain("'Nope' is not an ArchiMate 3.1 layer");
});

test("get_allowed_relationships answers the ArchiMate table for two types", async () => {
  const r = await structured("get_allowed_relationships", {
    source_type: "Application Component",
    target_type: "ApplicationService",
  });
  expect(r.source_type).toBe("ApplicationComponent");
  expect(r.allowed).toEqual(expect.arrayContaining(["Realization", "Association"]));
  expect(r.allowed).not.toContain("Access");
  const toData = await structured("get_allowed_relationships", {
    source_type: "ApplicationComponent",
    target_type: "DataObject",
  });
  expect(toData.allowed).toContain("Access");
});

/** A small layered model: an actor, a process, an application with its service, a node; relationships among them. */
async function smallModel() {
  const el = async (name: string, type: string) => (await structured("create_element", { name, type })).id as string;
  const actor = await el("Clerk", "BusinessActor");
  const process = await el("Handle Claim", "BusinessProcess");
  const app = await el("Claims App", "ApplicationComponent");
  const service = await el("Claim Service", "ApplicationService");
  const node = await el("App Server", "Node");
  const rel = async (type: string, source: string, target: string) =>
    (await structured("create_relationship", { type, source, target })).id as string;
  const rels = [
    await rel("Assignment", actor, process),
    await rel("Serving", service, process),
    await rel("Realization", app, service),
    await rel("Serving", node, app),
  ];
  return { actor, process, app, service, node, rels };
}

const summaryOf = async (viewId: string) =>
  (await client.callTool({ name: "render_view", arguments: { view_id: viewId, format: "svg" } })).structuredContent as {
    overlap_count: number;
    undrawn_count: number;
    element_count: number;
  };

test("add_to_view places elements in free space, layers top to bottom, and draws their relationships", async () => {
  const m = await smallModel();
  const view = (await structured("create_view", { name: "Claims" })).id as string;
  // One element already on the view, placed by hand.
  const existing = await structured("create_node", { view_id: view, element_id: m.actor, x: 40, y: 40 });
  const added = await structured("add_to_view", {
    view_id: view,
    element_ids: [m.actor, m.process, m.app, m.service, m.node],
  });
  expect(added.already_shown).toEqual([m.actor]);
  expect(added.added).toHaveLength(4);
  expect(added.connections).toHaveLength(4);
  // Below what was there, in free space.
  for (const n of added.added) expect(n.y).toBeGreaterThanOrEqual(existing.y + existing.h);
  const y = new Map<string, number>(added.added.map((n: { element_id: string; y: number }) => [n.element_id, n.y]));
  expect(y.get(m.process)).toBeLessThan(y.get(m.app)!);
  expect(y.get(m.app)).toBeLessThan(y.get(m.node)!);
  const summary = await summaryOf(view);
  expect(summary).toMatchObject({ element_count: 5, overlap_count: 0, undrawn_count: 0 });
  // Asking again adds nothing and draws nothing twice.
  const again = await structured("add_to_view", { view_id: view, element_ids: [m.app] });
  expect(again).toMatchObject({ added: [], already_shown: [m.app], connections: [] });
  const missing = (await client.callTool({
    name: "add_to_view",
    arguments: { view_id: view, element_ids: ["nope-1"] },
  })) as CallToolResult;
  expect(textOf(missing)).toBe("element_ids: no element 'nope-1' in this workspace");
});

test("auto_layout_view untangles a view whose nodes were piled on each other", async () => {
  const m = await smallModel();
  const view = (await structured("create_view", { name: "Pile" })).id as string;
  const ids = [m.actor, m.process, m.app, m.service, m.node];
  for (const element_id of ids) await structured("create_node", { view_id: view, element_id, x: 100, y: 100 });
  await structured("add_to_view", { view_id: view, element_ids: ids });
  expect((await summaryOf(view)).overlap_count).toBe(10);
  const laid = await structured("auto_layout_view", { view_id: view });
  expect(laid.moved).toBeGreaterThan(0);
  expect((await summaryOf(view)).overlap_count).toBe(0);
  const { nodes } = await structured("get_view", { view_id: view });
  const y = new Map<string, number>(nodes.map((n: { element_id: string; y: number }) => [n.element_id, n.y]));
  expect(y.get(m.actor)).toBeLessThan(y.get(m.app)!);
  expect(y.get(m.service)).toBeLessThan(y.get(m.node)!);
  // add_to_view with layout 'layered' lays out the whole view the same way.
  const more = await structured("create_element", { name: "Database", type: "SystemSoftware" });
  await structured("create_relationship", { type: "Serving", source: more.id, target: m.app });
  const layered = await structured("add_to_view", { view_id: view, element_ids: [more.id], layout: "layered" });
  expect(layered.connections).toHaveLength(1);
  expect((await summaryOf(view)).overlap_count).toBe(0);
});

test("create_workspace (with an import) and workspace_id work on another workspace without switching the user's", async () => {
  const xml = textOf(await tool("export_model"));
  const created = await structured("create_workspace", { name: "Copy", xml });
  expect(created.import.elements).toBeGreaterThan(0);
  expect(created.active).toBe(false);
  expect((await structured("get_model_info")).workspace.id).toBe(workspaceId);
  const there = await structured("list_elements", { workspace_id: created.id });
  expect(there.total).toBe(created.import.elements);
  const empty = await structured("create_workspace", { name: "Empty" });
  expect(empty.import).toBeUndefined();
  expect((await structured("list_elements", { workspace_id: empty.id })).total).toBe(0);
  const made = await structured("create_element", { workspace_id: empty.id, name: "Only here", type: "Node" });
  expect(
    (await structured("list_elements", { workspace_id: empty.id })).elements.map((e: { id: string }) => e.id),
  ).toEqual([made.id]);
  expect((await structured("list_elements", { name: "Only here" })).total).toBe(0);
  // Still the same active workspace for the user, REST included.
  expect((await structured("get_model_info")).workspace.id).toBe(workspaceId);
  const unknown = (await client.callTool({
    name: "list_elements",
    arguments: { workspace_id: "00000000-0000-4000-8000-000000000000" },
  })) as CallToolResult;
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toBe("Workspace '00000000-0000-4000-8000-000000000000' not found");
  // activate: true switches.
  const active = await structured("create_workspace", { name: "Switch", activate: true });
  expect(active.active).toBe(true);
  expect((await structured("get_model_info")).workspace.id).toBe(active.id);
  await structured("activate_workspace", { workspace_id: workspaceId });
});

test("a token pinned to one workspace reaches no other through workspace_id", async () => {
  const archi = await stack.signIn("archi");
  const pinned = await stack.mcpClient((await stack.apiToken(archi, workspaceId)).token);
  const other = (await structured("list_workspaces")).workspaces.find((w: { id: string }) => w.id !== workspaceId);
  const res = (await pinned.callTool({
    name: "list_elements",
    arguments: { workspace_id: other.id },
  })) as CallToolResult;
  expect(res.isError).toBe(true);
  expect(textOf(res)).toBe(`Workspace '${other.id}' not found`);
  await pinned.close();
});

test("get_element_views and get_relationship_views name the views showing them", async () => {
  const a = await structured("create_element", { name: "Shown", type: "ApplicationComponent" });
  const b = await structured("create_element", { name: "Also shown", type: "ApplicationService" });
  const r = await structured("create_relationship", { type: "Realization", source: a.id, target: b.id });
  const v = await structured("create_view", { name: "Showing" });
  expect((await structured("get_element_views", { element_id: a.id })).views).toEqual([]);
  await structured("add_to_view", { view_id: v.id, element_ids: [a.id, b.id] });
  expect((await structured("get_element_views", { element_id: a.id })).views).toEqual([
    { id: v.id, name: "Showing", viewpoint: null, documentation: null },
  ]);
  expect(
    (await structured("get_relationship_views", { relationship_id: r.id })).views.map((x: { id: string }) => x.id),
  ).toEqual([v.id]);
});

test("list answers stay small: documentation cut, summary and fields, page size", async () => {
  const huge = "x".repeat(500_000);
  const big = await structured("create_element", { name: "Big docs", type: "Node", documentation: huge });
  const res = await tool("list_elements", { name: "Big docs" });
  expect(textOf(res).length).toBeLessThan(5_000);
  const item = (res.structuredContent as any).elements[0];
  expect(item.documentation).toHaveLength(1001);
  expect(item.documentation_truncated).toBe(true);
  expect((await structured("get_element", { element_id: big.id })).documentation).toHaveLength(500_000);
  const summary = await structured("list_elements", { summary: true, limit: 2 });
  for (const e of summary.elements) expect(Object.keys(e).sort()).toEqual(["id", "name", "type"]);
  expect(summary.elements).toHaveLength(2);
  expect(summary.omitted).toBe(summary.total - 2);
  const names = await structured("list_elements", { fields: ["name"], limit: 1, offset: 1 });
  expect(Object.keys(names.elements[0]).sort()).toEqual(["id", "name"]);
  const rels = await structured("list_relationships", { summary: true });
  expect(Object.keys(rels.relationships[0]).sort()).toEqual(["id", "source", "target", "type"]);
  const views = await structured("list_views", { summary: true, limit: 1 });
  expect(views.views).toHaveLength(1);
  expect(Object.keys(views.views[0]).sort()).toEqual(["id", "name"]);
  expect(views.total).toBeGreaterThan(1);
  const bad = (await client.callTool({ name: "list_elements", arguments: { fields: ["colour"] } })) as CallToolResult;
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain("fields.0");
});

test("analyze_impact answers what depends on a node, by layer with paths; bad depth is an isError result", async () => {
  const m = await smallModel();
  const impact = await structured("analyze_impact", { element_id: m.node, depth: 3 });
  expect(impact.layers.map((l: { layer: string }) => l.layer)).toEqual(["Business", "Application"]);
  const process = impact.layers[0].elements[0];
  expect(process.id).toBe(m.process);
  expect(process.path_types).toEqual(["Serving", "Realization", "Serving"]);
  const up = await structured("analyze_impact", {
    element_id: m.process,
    direction: "dependencies",
    relationship_types: ["Assignment"],
  });
  expect(up.layers.flatMap((l: { elements: { id: string }[] }) => l.elements.map((e) => e.id))).toEqual([m.actor]);
  const bad = (await client.callTool({
    name: "analyze_impact",
    arguments: { element_id: m.node, depth: 9 },
  })) as CallToolResult;
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain("depth");
});

test("derive_relationships gives the certain serving of a node through the service it realizes", async () => {
  const m = await smallModel();
  const tech = (await structured("create_element", { name: "Hosting", type: "TechnologyService" })).id as string;
  await structured("create_relationship", { type: "Realization", source: m.node, target: tech });
  await structured("create_relationship", { type: "Serving", source: tech, target: m.app });
  const derived = await structured("derive_relationships", { element_id: m.node, target_id: m.app });
  expect(derived.relationships.map((r: { type: string; certainty: string }) => `${r.type} ${r.certainty}`)).toEqual([
    "Serving certain",
  ]);
  // The smallModel's node serves the app directly already.
  expect(derived.relationships[0].in_model).toBe(true);
});

test("plateau_gap compares two plateaus; a plateau id that is not one is an isError result", async () => {
  const m = await smallModel();
  const now = (await structured("create_element", { name: "Now", type: "Plateau" })).id as string;
  const next = (await structured("create_element", { name: "Next", type: "Plateau" })).id as string;
  await structured("create_relationship", { type: "Composition", source: now, target: m.app });
  await structured("create_relationship", { type: "Composition", source: next, target: m.app });
  await structured("create_relationship", { type: "Composition", source: next, target: m.service });
  const gap = await structured("plateau_gap", { from_plateau_id: now, to_plateau_id: next });
  expect(gap.elements.added.map((e: { id: string }) => e.id)).toEqual([m.service]);
  expect(gap.elements.kept.map((e: { id: string }) => e.id)).toEqual([m.app]);
  expect(gap.relationships.added.map((r: { type: string }) => r.type)).toEqual(["Realization"]);
  const bad = (await client.callTool({
    name: "plateau_gap",
    arguments: { from_plateau_id: m.app, to_plateau_id: next },
  })) as CallToolResult;
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain("not a Plateau");
});

test("validate_model lists the model's problems with a fix hint each; an unknown rule is an error", async () => {
  const a = await structured("create_element", { type: "ApplicationComponent", name: "Lonely twin" });
  await structured("create_element", { type: "ApplicationComponent", name: "lonely  twin" });
  const result = await structured("validate_model", { include: ["documentation_missing"], limit: 500 });
  const mine = result.issues.filter((i: { object: { id: string } }) => i.object.id === a.id);
  expect(mine.map((i: { rule: string }) => i.rule).sort()).toEqual(["documentation_missing", "element_on_no_view"]);
  expect(result.issues.some((i: { rule: string }) => i.rule === "duplicate_element")).toBe(true);
  expect(mine[0].fix_hint).toBeTruthy();
  expect(result.counts.total).toBeGreaterThanOrEqual(3);
  const bad = (await client.callTool({
    name: "validate_model",
    arguments: { include: ["spelling"] },
  })) as CallToolResult;
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain("unknown rule 'spelling'");
});

test("every added tool was called (the graph, history and draft tools in their own files)", () => {
  expect(workspaceId).toBeTruthy();
  const elsewhere = [...GRAPH_TOOLS, ...HISTORY_TOOLS, ...DRAFT_TOOLS];
  expect(ADDED_TOOLS.filter((name) => !called.has(name) && !elsewhere.includes(name))).toEqual([]);
});
