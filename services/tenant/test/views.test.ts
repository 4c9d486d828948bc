import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(() => h.close());

async function model() {
  const app = (await org.editor.post("/api/elements", { name: "CRM", type: "ApplicationComponent" })).body.id;
  const svc = (await org.editor.post("/api/elements", { name: "Customer API", type: "ApplicationService" })).body.id;
  const rel = (await org.editor.post("/api/relationships", { type: "Realization", source: app, target: svc })).body.id;
  const view = (await org.editor.post("/api/views", { name: "Landscape", viewpoint: "application cooperation" })).body;
  return { app, svc, rel, view };
}

describe("views, nodes and connections", () => {
  test("a view with nested nodes, a label and a connection reads back as a tree", async () => {
    const { app, svc, rel, view } = await model();
    expect(view.viewpoint).toBe("Application Cooperation");
    const group = await org.editor.post(`/api/views/${view.id}/nodes`, {
      kind: "container",
      label: "Core",
      x: 0,
      y: 0,
      w: 400,
      h: 300,
    });
    expect(group.status).toBe(201);
    const n1 = (
      await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: app, parent_id: group.body.id, x: 20, y: 40 })
    ).body;
    const n2 = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: svc, x: 500, y: 40, w: 140, h: 60 }))
      .body;
    await org.editor.post(`/api/views/${view.id}/nodes`, { kind: "label", label: "Note" });
    const conn = await org.editor.post(`/api/views/${view.id}/connections`, {
      source: n1.id,
      target: n2.id,
      relationship_id: rel,
      bendpoints: [{ x: 300, y: 70 }],
    });
    expect(conn.status).toBe(201);
    expect(conn.body).toMatchObject({
      kind: "relationship",
      relationship_id: rel,
      source: n1.id,
      target: n2.id,
      bendpoints: [{ x: 300, y: 70 }],
    });
    const detail = (await org.viewer.get(`/api/views/${view.id}`)).body;
    expect(detail.nodes.map((n: { kind: string }) => n.kind)).toEqual(["container", "element", "label"]);
    expect(detail.nodes[0].children[0]).toMatchObject({ id: n1.id, element_id: app, x: 20, y: 40, w: 120, h: 55 });
    expect(detail.connections).toHaveLength(1);
    expect((await org.viewer.get(`/api/elements/${app}/views`)).body.map((v: { id: string }) => v.id)).toEqual([
      view.id,
    ]);
    expect((await org.viewer.get(`/api/relationships/${rel}/views`)).body.map((v: { id: string }) => v.id)).toEqual([
      view.id,
    ]);

    expect((await org.editor.delete(`/api/views/${view.id}/nodes/${group.body.id}`)).status).toBe(204);
    const after = (await org.viewer.get(`/api/views/${view.id}`)).body;
    expect(after.nodes.map((n: { kind: string }) => n.kind)).toEqual(["element", "label"]);
    expect(after.connections).toEqual([]);
  });

  test("a connection must carry a relationship joining the two nodes' elements", async () => {
    const { app, svc, rel, view } = await model();
    const n1 = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: app })).body;
    const n2 = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: svc })).body;
    const reversed = await org.editor.post(`/api/views/${view.id}/connections`, {
      source: n2.id,
      target: n1.id,
      relationship_id: rel,
    });
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors[0].path).toBe("relationship_id");
    const other = (await org.editor.post("/api/views", { name: "Other" })).body;
    const n3 = (await org.editor.post(`/api/views/${other.id}/nodes`, { element_id: svc })).body;
    const crossView = await org.editor.post(`/api/views/${view.id}/connections`, { source: n1.id, target: n3.id });
    expect(crossView.status).toBe(422);
    const line = await org.editor.post(`/api/views/${view.id}/connections`, { source: n1.id, target: n2.id });
    expect(line.body.kind).toBe("line");
  });

  test("a node's element must be in the workspace; deleting the element removes its nodes and connections", async () => {
    const { app, svc, rel, view } = await model();
    const missing = await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: "id-nope" });
    expect(missing.status).toBe(422);
    const n1 = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: app })).body;
    const n2 = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: svc })).body;
    await org.editor.post(`/api/views/${view.id}/connections`, { source: n1.id, target: n2.id, relationship_id: rel });
    await org.editor.post(`/api/views/${view.id}/connections`, { source: n2.id, target: n1.id });
    expect((await org.editor.delete(`/api/elements/${app}`)).status).toBe(204);
    const detail = (await org.viewer.get(`/api/views/${view.id}`)).body;
    expect(detail.nodes.map((n: { id: string }) => n.id)).toEqual([n2.id]);
    expect(detail.connections).toEqual([]);
  });

  test("node and connection updates; unknown viewpoint refused; view delete", async () => {
    const { app, view } = await model();
    const n = (await org.editor.post(`/api/views/${view.id}/nodes`, { element_id: app })).body;
    const moved = await org.editor.put(`/api/views/${view.id}/nodes/${n.id}`, {
      x: 300,
      style: { fill: { r: 255, g: 0, b: 0 } },
    });
    expect(moved.body).toMatchObject({ x: 300, style: { fill: { r: 255, g: 0, b: 0 } } });
    const self = await org.editor.put(`/api/views/${view.id}/nodes/${n.id}`, { parent_id: n.id });
    expect(self.status).toBe(422);
    const vp = await org.editor.put(`/api/views/${view.id}`, { viewpoint: "Nonsense" });
    expect(vp.status).toBe(422);
    expect((await org.editor.delete(`/api/views/${view.id}`)).status).toBe(204);
    expect((await org.viewer.get(`/api/views/${view.id}`)).status).toBe(404);
  });

  test("viewpoints catalogue lists the 25 viewpoints", async () => {
    const res = await org.viewer.get("/api/viewpoints");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(25);
  });
});

describe("a node created without a position", () => {
  const inside = (c: Box, p: Box) => c.x >= p.x && c.y >= p.y && c.x + c.w <= p.x + p.w && c.y + c.h <= p.y + p.h;
  const apart = (a: Box, b: Box) => a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
  type Box = { x: number; y: number; w: number; h: number };

  test("lands in free space, never on a node placed by hand", async () => {
    const view = (await org.owner.post("/api/views", { name: "Free space" })).body;
    const el = async (name: string) => (await org.owner.post("/api/elements", { name, type: "Node" })).body.id;
    // Hand-placed exactly where a grid counting nodes would put the next ones (slots 3, 4 and 5).
    const placed: Box[] = [];
    for (const [x, y] of [
      [470, 20],
      [620, 20],
      [20, 100],
    ]) {
      const n = await org.owner.post(`/api/views/${view.id}/nodes`, { element_id: await el(`p${x}`), x, y });
      placed.push(n.body);
    }
    for (let i = 0; i < 4; i++) {
      const n = (await org.owner.post(`/api/views/${view.id}/nodes`, { element_id: await el(`auto${i}`) })).body;
      for (const p of placed) expect(apart(n, p), `${JSON.stringify(n)} vs ${JSON.stringify(p)}`).toBe(true);
      placed.push(n);
    }
  });

  test("nested with parent_id, it lands inside its parent; a full parent grows to hold it", async () => {
    const view = (await org.owner.post("/api/views", { name: "Nesting" })).body;
    const parent = (
      await org.owner.post(`/api/views/${view.id}/nodes`, {
        kind: "container",
        label: "Zone",
        x: 400,
        y: 300,
        w: 300,
        h: 160,
      })
    ).body;
    const children: Box[] = [];
    for (let i = 0; i < 5; i++) {
      const element = (await org.owner.post("/api/elements", { name: `child ${i}`, type: "Node" })).body.id;
      const child = await org.owner.post(`/api/views/${view.id}/nodes`, { element_id: element, parent_id: parent.id });
      expect(child.status).toBe(201);
      for (const c of children) expect(apart(child.body, c)).toBe(true);
      children.push(child.body);
    }
    const detail = (await org.owner.get(`/api/views/${view.id}`)).body;
    const grown = detail.nodes.find((n: { id: string }) => n.id === parent.id);
    for (const c of children) expect(inside(c, grown), `${JSON.stringify(c)} in ${JSON.stringify(grown)}`).toBe(true);
    expect(grown.h).toBeGreaterThan(160);
  });
});
