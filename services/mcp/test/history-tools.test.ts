import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";
import { HISTORY_TOOLS } from "./support/tool-names.ts";

/**
 * Issue 23's MCP tools over the change log (get_history, list_versions, create_version, diff_versions,
 * revert_change), through the official SDK client over the gateway, on real PostgreSQL. The clients list the tools
 * first, so the SDK checks every structuredContent against its outputSchema.
 */
let stack: Stack;
let owner: Client;
let viewer: Client;
let workspaceId: string;
let otherWorkspaceId: string;
let otherOrgWorkspaceId: string;
const called = new Set<string>();

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  // The other workspace of the same organization first: the last one created is the active one.
  otherWorkspaceId = (await archi.call("POST", "/api/workspaces", { name: "Elsewhere" })).body.id;
  workspaceId = (await archi.call("POST", "/api/workspaces", { name: "History" })).body.id;
  const open = await stack.signIn("open");
  otherOrgWorkspaceId = (await open.call("POST", "/api/workspaces", { name: "Open's" })).body.id;
  owner = await stack.mcpClient((await stack.apiToken(archi)).token);
  viewer = await stack.mcpClient((await stack.apiToken(await stack.signIn("user"))).token);
  await owner.listTools();
  await viewer.listTools();
}, 120_000);
afterAll(async () => {
  await owner?.close();
  await viewer?.close();
  await stack?.close();
});

async function call(name: string, args: Record<string, unknown> = {}, client = owner): Promise<CallToolResult> {
  called.add(name);
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
async function ok(name: string, args: Record<string, unknown> = {}, client = owner) {
  const result = await call(name, args, client);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as any;
}
/** A refused call: its text and the REST problem it carries. */
async function refused(name: string, args: Record<string, unknown>, client = owner) {
  const result = await call(name, args, client);
  expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
  return { text: textOf(result), problem: result._meta?.["ams/problem"] as any };
}
const latestRevision = async () => (await ok("get_history", { limit: 1 })).items[0].revision as number;

describe("get_history", () => {
  test("the workspace's changes newest first with who and through what, paged with before, filtered", async () => {
    const crm = await ok("create_element", { name: "CRM", type: "ApplicationComponent" });
    await ok("update_element", { element_id: crm.id, name: "CRM Suite" });
    await ok("update_element", { element_id: crm.id, documentation: "Customer data" });

    const first = await ok("get_history", { limit: 2 });
    expect(first.of).toEqual({ kind: "workspace", id: workspaceId });
    expect(first.items).toHaveLength(2);
    const [newest, older] = first.items;
    expect(newest.revision).toBe(older.revision + 1);
    expect(newest).toMatchObject({
      actor: { name: "Demo Architect" },
      via: { kind: "mcp", name: "mcp test archi" },
      object_count: 1,
      objects: [{ kind: "element", id: crm.id, name: "CRM Suite", op: "update" }],
    });
    expect(older.summary).toBe("Renamed ApplicationComponent 'CRM' to 'CRM Suite'");
    expect(first.next_before).toBe(older.revision);

    const next = await ok("get_history", { limit: 2, before: first.next_before });
    expect(next.items[0]).toMatchObject({
      revision: older.revision - 1,
      objects: [{ kind: "element", id: crm.id, op: "create" }],
    });

    const views = await ok("get_history", { kind: "view" });
    expect(views.items).toEqual([]);
    expect(views.next_before).toBeNull();
    expect((await ok("get_history", { via: "mcp", limit: 3 })).items).toHaveLength(3);
    // The workspace's creation came from the browser (the REST call with a session cookie), as revision 1.
    const browser = await ok("get_history", { via: "browser" });
    expect(browser.items).toEqual([expect.objectContaining({ revision: 1, summary: "Created workspace 'History'" })]);
  });

  test("one element's changes field by field, a deleted one's too; long values cut", async () => {
    const billing = await ok("create_element", { name: "Billing", type: "ApplicationComponent" });
    await ok("update_element", { element_id: billing.id, name: "Billing Engine" });
    await ok("update_element", { element_id: billing.id, documentation: "x".repeat(5000) });
    await ok("delete_element", { element_id: billing.id });

    const history = await ok("get_history", { element_id: billing.id });
    expect(history.of).toEqual({ kind: "element", id: billing.id });
    expect(history.items.map((i: { op: string }) => i.op)).toEqual(["delete", "update", "update", "create"]);
    expect(history.items[2].fields).toEqual([{ field: "name", before: "Billing", after: "Billing Engine" }]);
    const doc = history.items[1];
    expect(doc.values_truncated).toBe(true);
    expect(doc.fields[0]).toMatchObject({ field: "documentation", before: null });
    expect(doc.fields[0].after).toBe(`${"x".repeat(1000)}…`);
    expect(history.items[2].values_truncated).toBeUndefined();

    const page = await ok("get_history", { element_id: billing.id, limit: 1, before: history.items[1].revision });
    expect(page.items).toHaveLength(1);
    expect(page.items[0].op).toBe("update");
    expect(page.next_before).toBe(page.items[0].revision);
  });

  test("a view's changes list its nodes and connections added and moved; a relationship's its fields", async () => {
    const a = await ok("create_element", { name: "Portal", type: "ApplicationComponent" });
    const b = await ok("create_element", { name: "Portal Service", type: "ApplicationService" });
    const rel = await ok("create_relationship", { type: "Realization", source: a.id, target: b.id });
    await ok("update_relationship", { relationship_id: rel.id, name: "provides" });
    const view = await ok("create_view", { name: "Portal view" });
    const node = await ok("create_node", { view_id: view.id, element_id: a.id, x: 10, y: 10 });
    await ok("update_node", { view_id: view.id, node_id: node.id, x: 200, y: 10 });

    const history = await ok("get_history", { view_id: view.id });
    expect(history.of).toEqual({ kind: "view", id: view.id });
    const [moved, added, created] = history.items;
    expect(moved.parts).toEqual([
      expect.objectContaining({ kind: "node", id: node.id, name: "Portal", change: "moved" }),
    ]);
    expect(moved.parts[0].fields).toContainEqual({ field: "x", before: 10, after: 200 });
    expect(added.parts[0]).toMatchObject({ kind: "node", change: "added" });
    expect(created.op).toBe("create");

    const relHistory = await ok("get_history", { relationship_id: rel.id });
    expect(relHistory.items[0].fields).toEqual([{ field: "name", before: null, after: "provides" }]);
  });

  test("bad arguments: two ids, a workspace filter with an id, an unknown object", async () => {
    const two = await refused("get_history", { element_id: "id-a", view_id: "id-b" });
    expect(two.text).toBe("Give at most one of element_id, relationship_id and view_id");
    expect(two.problem).toMatchObject({ code: "VALIDATION", status: 422 });
    const filter = await refused("get_history", { element_id: "id-a", via: "mcp" });
    expect(filter.text).toBe("via: filters the workspace history only (without an object id)");
    const missing = await refused("get_history", { element_id: "id-never" });
    expect(missing.problem).toMatchObject({ code: "NOT_FOUND", status: 404 });
    expect(missing.text).toContain("id-never");
  });
});

describe("versions and diff_versions", () => {
  test("a version names the current revision; the diff from it says what changed, counts first", async () => {
    const current = await latestRevision();
    const lunch = await ok("create_version", { name: "Before lunch", description: "The morning's work" });
    expect(lunch).toMatchObject({
      name: "Before lunch",
      description: "The morning's work",
      revision: current,
      automatic: false,
      created_by: { name: "Demo Architect" },
    });
    const { versions, total, omitted } = await ok("list_versions");
    expect(versions[0]).toEqual(lunch);
    expect(total).toBe(versions.length);
    expect(omitted).toBe(0);

    const kept = await ok("create_element", { name: "Ledger", type: "ApplicationComponent" });
    const x = await ok("create_element", { name: "Scratch", type: "Node" });
    await ok("create_element", { name: "Queue", type: "SystemSoftware" });
    await ok("update_element", { element_id: kept.id, name: "General Ledger" });
    await ok("delete_element", { element_id: x.id });
    const view = await ok("create_view", { name: "Ledger view" });
    const node = await ok("create_node", { view_id: view.id, element_id: kept.id, x: 0, y: 0 });
    await ok("update_node", { view_id: view.id, node_id: node.id, w: 300 });

    const diff = await ok("diff_versions", { from: lunch.id });
    expect(Object.keys(diff).slice(0, 4)).toEqual(["from", "to", "counts", "truncated"]);
    expect(diff.from).toEqual({ revision: current, version: { id: lunch.id, name: "Before lunch" } });
    expect(diff.to).toEqual({ revision: await latestRevision(), version: null });
    // Created and deleted between the two: Scratch is no difference at all.
    expect(diff.counts.elements).toEqual({ added: 2, removed: 0, changed: 0 });
    expect(diff.counts.views).toEqual({ added: 1, removed: 0, changed: 0 });
    expect(diff.counts.view_layouts).toMatchObject({ views: 1, nodes_added: 1 });
    expect(diff.truncated).toBe(false);
    expect(diff.note).toBeUndefined();
    expect(diff.elements.added.map((e: { name: string }) => e.name).sort()).toEqual(["General Ledger", "Queue"]);

    // From the revision after Ledger's creation (a number or its text): the rename is a change, Scratch removed.
    const afterLedger = current + 1;
    const byNumber = await ok("diff_versions", { from: afterLedger, to: "current" });
    const byText = await ok("diff_versions", { from: String(afterLedger) });
    expect(byText).toEqual(byNumber);
    expect(byNumber.counts.elements).toEqual({ added: 1, removed: 0, changed: 1 });
    expect(byNumber.elements.changed[0]).toMatchObject({
      id: kept.id,
      fields: [{ field: "name", before: "Ledger", after: "General Ledger" }],
    });

    // Backwards, and bounded: counts stay whole, the lists hold `limit` items, the note says so.
    const back = await ok("diff_versions", { from: "current", to: lunch.id, limit: 1 });
    expect(back.counts.elements).toEqual({ added: 0, removed: 2, changed: 0 });
    expect(back.elements.removed).toHaveLength(1);
    expect(back.truncated).toBe(true);
    expect(back.note).toMatch(/^1 items are left out: each list holds at most 1 \(counts give the totals\)/);
  });

  test("a point of another workspace is not found; a revision beyond the current one is refused clearly", async () => {
    const elsewhere = await ok("create_version", { name: "Elsewhere", workspace_id: otherWorkspaceId });
    expect((await ok("list_versions", { workspace_id: otherWorkspaceId })).versions).toEqual([elsewhere]);
    expect((await ok("list_versions")).versions.map((v: { id: string }) => v.id)).not.toContain(elsewhere.id);

    const foreign = await refused("diff_versions", { from: elsewhere.id });
    expect(foreign.text).toBe(`Version '${elsewhere.id}' not found in this workspace`);
    expect(foreign.problem).toMatchObject({ code: "NOT_FOUND", status: 404 });

    for (const name of ["get_history", "list_versions"]) {
      const otherOrg = await refused(name, { workspace_id: otherOrgWorkspaceId });
      expect(otherOrg.problem, name).toMatchObject({ code: "NOT_FOUND", status: 404 });
    }
    const otherOrgRevert = await refused("revert_change", { revision: 1, workspace_id: otherOrgWorkspaceId });
    expect(otherOrgRevert.problem).toMatchObject({ code: "NOT_FOUND", status: 404 });

    const current = await latestRevision();
    const beyond = await refused("diff_versions", { from: current + 100 });
    expect(beyond.text).toBe(`from: revision ${current + 100} is beyond the workspace's current revision ${current}`);
    expect(beyond.problem).toMatchObject({ code: "VALIDATION", status: 422 });
    const revertBeyond = await refused("revert_change", { revision: current + 1 });
    expect(revertBeyond.text).toBe(`revision: ${current + 1} is beyond the current revision ${current}`);
    expect(revertBeyond.problem).toMatchObject({ code: "VALIDATION", status: 422 });
    expect((await refused("diff_versions", { from: "yesterday" })).text).toBe(
      "from: 'yesterday' is neither a version id nor a revision number",
    );
  });
});

describe("revert_change", () => {
  test("undoes a rename as a new change", async () => {
    const el = await ok("create_element", { name: "Old name", type: "BusinessActor" });
    await ok("update_element", { element_id: el.id, name: "New name" });
    const rename = await latestRevision();
    const reverted = await ok("revert_change", { revision: rename });
    expect(reverted).toEqual({
      revision: rename + 1,
      summary: "Reverted revision " + rename + ": Renamed BusinessActor 'Old name' to 'New name'",
      objects: 1,
    });
    expect((await ok("get_element", { element_id: el.id })).name).toBe("Old name");
    expect((await ok("get_history", { limit: 1 })).items[0]).toMatchObject({
      revision: rename + 1,
      summary: reverted.summary,
    });
  });

  test("an undelete brings the element back with its id, its relationships, nodes and connections", async () => {
    const app = await ok("create_element", { name: "Claims App", type: "ApplicationComponent" });
    const service = await ok("create_element", { name: "Claims Service", type: "ApplicationService" });
    const rel = await ok("create_relationship", { type: "Realization", source: app.id, target: service.id });
    const view = await ok("create_view", { name: "Claims view" });
    const drawn = await ok("add_to_view", { view_id: view.id, element_ids: [app.id, service.id] });
    expect(drawn.connections).toHaveLength(1);
    await ok("delete_element", { element_id: app.id });
    const deletion = await latestRevision();
    expect((await refused("get_relationship", { relationship_id: rel.id })).problem.status).toBe(404);
    expect((await ok("get_view", { view_id: view.id })).nodes).toHaveLength(1);

    const undone = await ok("revert_change", { revision: deletion });
    expect(undone.revision).toBe(deletion + 1);
    expect(undone.summary).toBe(`Reverted revision ${deletion}: Deleted ApplicationComponent 'Claims App'`);
    expect(await ok("get_element", { element_id: app.id })).toMatchObject({
      id: app.id,
      name: "Claims App",
      revision: deletion + 1,
    });
    expect(await ok("get_relationship", { relationship_id: rel.id })).toMatchObject({
      source: app.id,
      target: service.id,
    });
    const restored = await ok("get_view", { view_id: view.id });
    expect(restored.nodes.map((n: { element_id: string }) => n.element_id).sort()).toEqual([app.id, service.id].sort());
    expect(restored.connections).toEqual([expect.objectContaining({ relationship_id: rel.id })]);
  });

  test("a change whose objects changed later is a tool error naming the later revisions and objects", async () => {
    const el = await ok("create_element", { name: "Contested", type: "BusinessRole" });
    await ok("update_element", { element_id: el.id, name: "Contested once" });
    const first = await latestRevision();
    await ok("update_element", { element_id: el.id, name: "Contested twice" });
    const second = await latestRevision();

    const conflict = await refused("revert_change", { revision: first });
    expect(conflict.text).toBe(
      `Later changes touched the same objects: revision ${second} (element '${el.id}'); revert those first or restore a version`,
    );
    expect(conflict.problem).toMatchObject({
      code: "CONFLICT",
      status: 409,
      errors: [{ path: `element/${el.id}`, message: `changed later in revision ${second}` }],
    });
    // Nothing was written: the name and the revision stay.
    expect((await ok("get_element", { element_id: el.id })).name).toBe("Contested twice");
    expect(await latestRevision()).toBe(second);
  });
});

describe("every tool that changes the model answers the workspace's revision after the change", () => {
  test("creates, updates, deletes, arranging, import and revert, each one revision on", async () => {
    let previous = await latestRevision();
    /** The call's answer names the revision get_history shows as the newest, one after the previous. */
    const step = async (name: string, args: Record<string, unknown>, revisionOf = (a: any) => a.revision) => {
      const answer = await ok(name, args);
      const revision = revisionOf(answer) as number;
      expect(revision, name).toBe(previous + 1);
      expect(await latestRevision(), name).toBe(revision);
      previous = revision;
      return answer;
    };
    const definition = await step("create_property_definition", { name: "Tier" });
    await step("update_property_definition", { definition_id: definition.id, name: "Service tier" });
    const a = await step("create_element", { name: "Orders", type: "ApplicationComponent" });
    await step("update_element", { element_id: a.id, properties: { "Service tier": "gold" } });
    const b = await step("create_element", { name: "Orders Service", type: "ApplicationService" });
    const rel = await step("create_relationship", { type: "Realization", source: a.id, target: b.id });
    await step("update_relationship", { relationship_id: rel.id, name: "realizes" });
    const view = await step("create_view", { name: "Orders view" });
    await step("update_view", { view_id: view.id, documentation: "The order flow" });
    const na = await step("create_node", { view_id: view.id, element_id: a.id, x: 0, y: 0 });
    await step("update_node", { view_id: view.id, node_id: na.id, x: 40 });
    const added = await step("add_to_view", { view_id: view.id, element_ids: [b.id], include_relationships: false });
    const nb = added.added[0].id as string;
    const connection = await step("create_connection", {
      view_id: view.id,
      relationship_id: rel.id,
      source: na.id,
      target: nb,
    });
    await step("update_connection", { view_id: view.id, connection_id: connection.id, label: "realizes" });
    await step("auto_layout_view", { view_id: view.id });
    const deleted = await step("delete_connection", { view_id: view.id, connection_id: connection.id });
    expect(deleted).toEqual({ revision: previous, summary: expect.stringContaining("connection"), objects: 1 });
    await step("delete_node", { view_id: view.id, node_id: nb });
    // An element's deletion is one change with everything that went with it.
    const gone = await step("delete_element", { element_id: a.id });
    expect(gone).toMatchObject({ summary: "Deleted ApplicationComponent 'Orders'" });
    expect(gone.objects).toBeGreaterThanOrEqual(4); // the element, its relationship, its node, its property value
    await step("revert_change", { revision: gone.revision });
    await step("delete_relationship", { relationship_id: rel.id });
    await step("delete_view", { view_id: view.id });
    await step("delete_property_definition", { definition_id: definition.id });
  });

  test("a change that changes nothing answers the revision as it stands", async () => {
    const el = await ok("create_element", { name: "Shown", type: "Node" });
    const view = await ok("create_view", { name: "Shown view" });
    await ok("add_to_view", { view_id: view.id, element_ids: [el.id] });
    const before = await latestRevision();
    const again = await ok("add_to_view", { view_id: view.id, element_ids: [el.id] });
    expect(again).toMatchObject({ added: [], already_shown: [el.id], revision: before });
    expect(await latestRevision()).toBe(before);
  });

  test("import_model and create_workspace with xml answer the revision of the import", async () => {
    const before = await latestRevision();
    const xml = textOf(await call("export_model"));
    const imported = await ok("import_model", { xml });
    expect(imported.revision).toBe(before + 1);
    expect(await latestRevision()).toBe(before + 1);
    const created = await ok("create_workspace", { name: "Imported copy", xml });
    // A new workspace: its creation and the import are its first change.
    expect(created.import.revision).toBe(1);
    const history = await ok("get_history", { workspace_id: created.id });
    expect(history.items.map((i: { revision: number }) => i.revision)).toEqual([1]);
  });
  test("import_model and export_model with format csv: Archi's files in, one change group, the same files out", async () => {
    const before = await latestRevision();
    const imported = await ok("import_model", {
      format: "csv",
      elements: `"ID","Type","Name","Documentation","Specialization"\n"csv-a","BusinessActor","Clerk","",""\n"csv-r","BusinessRole","Desk","",""`,
      relations: `"ID","Type","Name","Documentation","Source","Target","Specialization"\n"csv-ar","AssignmentRelationship","","","csv-a","csv-r",""`,
      properties: `"ID","Key","Value"\n"csv-a","Owner","Back office"`,
    });
    expect(imported).toMatchObject({ created: 3, updated: 0, revision: before + 1 });
    const files = JSON.parse(textOf(await call("export_model", { format: "csv" })));
    expect(files["elements.csv"]).toContain(`"csv-a","BusinessActor","Clerk","",""`);
    expect(files["relations.csv"]).toContain(`"csv-ar","AssignmentRelationship","","","csv-a","csv-r",""`);
    expect(files["properties.csv"]).toContain(`"csv-a","Owner","Back office"`);
    const refused = await call("import_model", {
      format: "csv",
      relations: `"ID","Type","Name","Documentation","Source","Target","Specialization"\n"x","CompositionRelationship","","","csv-a","nowhere",""`,
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/relations\.csv row 2 \(line 2\), column Target/);
    expect(await latestRevision()).toBe(before + 1);
  });
});

describe("roles", () => {
  test("a viewer reads history, versions and diffs, but neither creates versions nor reverts", async () => {
    const listed = (await viewer.listTools()).tools.map((t) => t.name);
    expect(listed).toEqual(expect.arrayContaining(["get_history", "list_versions", "diff_versions"]));
    expect(listed).not.toContain("create_version");
    expect(listed).not.toContain("revert_change");

    // The viewer's own active workspace is another one: each call names this one.
    const here = { workspace_id: workspaceId };
    const current = await latestRevision();
    expect((await ok("get_history", { limit: 1, ...here }, viewer)).items[0].revision).toBe(current);
    const { versions } = await ok("list_versions", here, viewer);
    expect(versions.length).toBeGreaterThan(0);
    expect((await ok("diff_versions", { from: versions[0].id, ...here }, viewer)).to.revision).toBe(current);

    for (const [name, args] of [
      ["create_version", { name: "Mine" }],
      ["revert_change", { revision: current }],
    ] as const) {
      const refusal = await refused(name, { ...args, ...here }, viewer);
      expect(refusal.text, name).toBe("Your role (viewer) does not allow model:write");
      expect(refusal.problem, name).toMatchObject({ code: "FORBIDDEN", status: 403 });
    }
    expect(await latestRevision()).toBe(current);
    expect((await ok("list_versions")).versions).toEqual(versions);
  });
});

test("every history tool was called", () => {
  expect(HISTORY_TOOLS.filter((name) => !called.has(name))).toEqual([]);
});
