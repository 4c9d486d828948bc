import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

/** The change log's read side over HTTP, on real PostgreSQL: who changed what, when and through what. */
let h: TenantHarness;
let org: OrgFixture;
let other: OrgFixture;

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
  other = await h.organization();
});
afterAll(async () => h?.close());

/** The editor as a signed-in browser, and the same editor through a named API token. */
const browser = () =>
  org.client({ ...org.editor.caller, via: { kind: "browser", name: null }, displayName: "Ana Lima" });
const token = () =>
  org.client({ ...org.editor.caller, via: { kind: "api_token", name: "Nightly sync" }, displayName: "Ana Lima" });

describe("workspace history", () => {
  test("an editor's rename, node move and new property read back newest first, with who and how", async () => {
    const ana = browser();
    const el = (await ana.post("/api/elements", { name: "CRM", type: "ApplicationComponent" })).body;
    const def = await ana.post("/api/property-definitions", { name: "Owner" });
    expect(def.status).toBe(201);
    const view = (await ana.post("/api/views", { name: "Landscape" })).body;
    const node = (await ana.post(`/api/views/${view.id}/nodes`, { element_id: el.id, x: 10, y: 10 })).body;
    const renamed = await ana.put(`/api/elements/${el.id}`, { name: "CRM system" });
    expect(renamed.status).toBe(200);
    const moved = await ana.put(`/api/views/${view.id}/nodes/${node.id}`, { x: 200, y: 80 });
    expect(moved.status).toBe(200);
    const synced = await token().put(`/api/elements/${el.id}`, { properties: { Owner: "Sales" } });
    expect(synced.status).toBe(200);

    // Every object answers the revision of its last change.
    expect(moved.body.revision).toBe(renamed.body.revision + 1);
    expect(synced.body.revision).toBe(moved.body.revision + 1);
    expect((await ana.get(`/api/elements/${el.id}`)).body.revision).toBe(synced.body.revision);

    const page = await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?limit=3`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((i: { summary: string }) => i.summary)).toEqual([
      "Updated ApplicationComponent 'CRM system'",
      "Moved node 'CRM system'",
      "Renamed ApplicationComponent 'CRM' to 'CRM system'",
    ]);
    const [property, move, rename] = page.body.items;
    expect(property).toMatchObject({
      revision: synced.body.revision,
      actor: { id: org.editor.caller.userId, name: "Ana Lima" },
      via: { kind: "api_token", name: "Nightly sync" },
      object_count: 1,
      objects: [{ kind: "property_value", id: `${el.id}/0`, name: "Owner", op: "create" }],
    });
    expect(move).toMatchObject({
      via: { kind: "browser", name: null },
      objects: [{ kind: "node", id: node.id, name: "CRM system", op: "update" }],
    });
    expect(rename.objects).toEqual([{ kind: "element", id: el.id, name: "CRM system", op: "update" }]);
    expect(Date.parse(rename.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(page.body.next_before).toBe(rename.revision);

    const byVia = await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?via=api_token`);
    expect(byVia.body.items.map((i: { revision: number }) => i.revision)).toEqual([synced.body.revision]);
    const byKind = await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?kind=node`);
    expect(byKind.body.items.map((i: { summary: string }) => i.summary)).toEqual([
      "Moved node 'CRM system'",
      "Added element 'CRM' to view 'Landscape'", // the summary says it as it was then
    ]);
  });

  test("pages follow next_before to the first change without a gap or a repeat", async () => {
    const o = await h.organization();
    for (let i = 0; i < 7; i++) await o.editor.post("/api/elements", { name: `E${i}`, type: "Node" });
    const seen: number[] = [];
    let before: number | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const res = await o.viewer.get(
        `/api/workspaces/${o.workspaceId}/history?limit=3${before ? `&before=${before}` : ""}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: { revision: number }) => i.revision));
      before = res.body.next_before;
      if (before === null) break;
    }
    // Revision 1 created the workspace (its system property definition); 2..8 the elements.
    expect(seen).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
  });

  test("bad paging is a 422 naming the parameter", async () => {
    const res = await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?limit=0`);
    expect(res.status).toBe(422);
    expect(res.text).toContain("limit");
  });

  test("another organization's workspace history is not found", async () => {
    expect((await org.owner.get(`/api/workspaces/${other.workspaceId}/history`)).status).toBe(404);
    expect((await org.owner.get("/api/workspaces/not-a-uuid/history")).status).toBe(404);
  });
});

describe("one object's history", () => {
  test("an element's history shows each change field by field, its properties included, after its deletion too", async () => {
    const ana = browser();
    await ana.post("/api/property-definitions", { name: "Cost", type: "number" });
    const el = (await ana.post("/api/elements", { name: "Billing", type: "ApplicationService" })).body;
    await ana.put(`/api/elements/${el.id}`, { name: "Billing service", documentation: "Invoices" });
    await token().put(`/api/elements/${el.id}`, { properties: { Cost: 12 } });
    await ana.put(`/api/elements/${el.id}`, { properties: { Cost: 15 } });
    const res = await org.viewer.get(`/api/elements/${el.id}/history`);
    expect(res.status).toBe(200);
    const [cost15, cost12, rename, create] = res.body.items;
    expect(cost15).toMatchObject({ op: "update", fields: [{ field: "properties.Cost", before: 12, after: 15 }] });
    expect(cost12).toMatchObject({ via: { kind: "api_token", name: "Nightly sync" } });
    expect(rename.fields).toEqual([
      { field: "name", before: "Billing", after: "Billing service" },
      { field: "documentation", before: null, after: "Invoices" },
    ]);
    expect(create).toMatchObject({ op: "create" });
    expect(create.fields).toEqual(
      expect.arrayContaining([
        { field: "name", before: null, after: "Billing" },
        { field: "type", before: null, after: "ApplicationService" },
      ]),
    );
    expect(res.body.next_before).toBeNull();

    expect((await ana.delete(`/api/elements/${el.id}`)).status).toBe(204);
    const after = await org.viewer.get(`/api/elements/${el.id}/history?limit=1`);
    expect(after.body.items[0]).toMatchObject({
      op: "delete",
      summary: "Deleted ApplicationService 'Billing service'",
    });
    expect(after.body.items[0].fields).toEqual(
      expect.arrayContaining([
        { field: "name", before: "Billing service", after: null },
        { field: "properties.Cost", before: 15, after: null },
      ]),
    );
    expect(after.body.next_before).toBe(after.body.items[0].revision);
  });

  test("a relationship's history", async () => {
    const a = (await org.editor.post("/api/elements", { name: "A", type: "ApplicationComponent" })).body;
    const b = (await org.editor.post("/api/elements", { name: "B", type: "ApplicationService" })).body;
    const rel = (await org.editor.post("/api/relationships", { type: "Realization", source: a.id, target: b.id })).body;
    await org.editor.put(`/api/relationships/${rel.id}`, { name: "realizes" });
    const res = await org.viewer.get(`/api/relationships/${rel.id}/history`);
    expect(res.body.items.map((i: { op: string }) => i.op)).toEqual(["update", "create"]);
    expect(res.body.items[0].fields).toEqual([{ field: "name", before: null, after: "realizes" }]);
  });

  test("a view's history names its nodes' and connections' additions, moves, resizes and removals", async () => {
    const a = (await org.editor.post("/api/elements", { name: "Portal", type: "ApplicationComponent" })).body;
    const b = (await org.editor.post("/api/elements", { name: "Claims", type: "ApplicationService" })).body;
    const rel = (await org.editor.post("/api/relationships", { type: "Realization", source: a.id, target: b.id })).body;
    const view = (await org.editor.post("/api/views", { name: "Claims view" })).body;
    const na = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: a.id, x: 0, y: 0 })).body;
    const nb = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: b.id, x: 300, y: 0 })).body;
    await org.editor.post(`/api/views/${view.id}/connections`, {
      source: na.id,
      target: nb.id,
      relationship_id: rel.id,
    });
    await org.editor.put(`/api/views/${view.id}/nodes/${na.id}`, { x: 40, y: 50 });
    await org.editor.put(`/api/views/${view.id}/nodes/${nb.id}`, { w: 200 });
    await org.editor.delete(`/api/views/${view.id}/nodes/${nb.id}`);
    const res = await org.viewer.get(`/api/views/${view.id}/history`);
    expect(res.status).toBe(200);
    const parts = res.body.items.map((i: { parts: { kind: string; name: string; change: string }[] }) =>
      i.parts.map((p) => `${p.kind} ${p.name} ${p.change}`).sort(),
    );
    expect(parts).toEqual([
      ["connection Realization removed", "node Claims removed"],
      ["node Claims resized"],
      ["node Portal moved"],
      ["connection Realization added"],
      ["node Claims added"],
      ["node Portal added"],
      [],
    ]);
    expect(res.body.items[2].parts[0].fields).toEqual([
      { field: "x", before: 0, after: 40 },
      { field: "y", before: 0, after: 50 },
    ]);
    expect(res.body.items[6]).toMatchObject({ op: "create", summary: "Created view 'Claims view'" });
  });

  test("an object of another workspace, or none, is not found; a viewer reads, a member of another org does not", async () => {
    const el = (await other.owner.post("/api/elements", { name: "Theirs", type: "Node" })).body;
    expect((await other.viewer.get(`/api/elements/${el.id}/history`)).status).toBe(200);
    expect((await org.owner.get(`/api/elements/${el.id}/history`)).status).toBe(404);
    expect((await org.owner.get("/api/views/no-such-view/history")).status).toBe(404);
    expect((await org.owner.get("/api/relationships/no-such-relationship/history")).status).toBe(404);
  });
});
