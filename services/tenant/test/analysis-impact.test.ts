import { demoModelXml } from "@ams/model";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
let other: OrgFixture;
beforeAll(async () => {
  h = await tenantHarness();
  [org, other] = [await h.organization(), await h.organization()];
  const imported = await org.owner.post("/api/import", demoModelXml(), { "content-type": "application/xml" });
  expect(imported.status).toBe(200);
});
afterAll(() => h.close());

const names = (layer: { elements: { name: string }[] }) => layer.elements.map((e) => e.name).sort();

test("what depends on the Mainframe: by layer, each with its shortest path", async () => {
  const res = await org.viewer.get("/api/elements/e-mainframe/impact?depth=4");
  expect(res.status).toBe(200);
  expect(res.body.element).toEqual({ id: "e-mainframe", type: "Node", name: "Mainframe", layer: "Technology" });
  expect(res.body.direction).toBe("dependents");
  expect(res.body.layers.map((l: { layer: string }) => l.layer)).toEqual([
    "Business",
    "Application",
    "Technology",
    "Implementation",
  ]);
  const [business, application, technology, implementation] = res.body.layers;
  expect(names(business)).toEqual(["Accept", "Valuate"]);
  expect(names(application)).toEqual([
    "Claims administration service",
    "Financial application",
    "Payment service",
    "Policy administration",
  ]);
  // The DBMS is a part of the Mainframe (composition): the Mainframe needs it, not the other way round; the LAN is
  // only associated.
  expect(names(technology)).toEqual(["Claim files service"]);
  // Today's plateau is composed of the Mainframe (a whole needs its parts); the 2027 plateau follows it (triggering).
  expect(names(implementation)).toEqual(["Claims today", "Online claims (2027)"]);
  expect(res.body.count).toBe(9);
  const accept = business.elements.find((e: { name: string }) => e.name === "Accept");
  expect(accept.distance).toBe(4);
  expect(accept.path_types).toEqual(["Realization", "Serving", "Realization", "Serving"]);
  expect(accept.path.map((s: { relationship_id: string }) => s.relationship_id)).toEqual([
    "r-32",
    "r-33",
    "r-22",
    "r-18",
  ]);
});

test("dependencies walk against the flow; depth limits the walk; types filter it", async () => {
  const deps = await org.viewer.get("/api/elements/e-accept/impact?direction=dependencies&depth=2");
  const all = deps.body.layers.flatMap((l: { elements: { id: string; distance: number }[] }) => l.elements);
  expect(Object.fromEntries(all.map((e: { id: string; distance: number }) => [e.id, e.distance]))).toEqual({
    "e-as-claims": 1,
    "e-register": 1,
    "e-as-customer": 2,
    "e-policy": 2,
  });
  const shallow = await org.viewer.get("/api/elements/e-mainframe/impact?depth=1");
  expect(shallow.body.count).toBe(2);
  const onlyServing = await org.viewer.get("/api/elements/e-ts-claims/impact?types=serving&depth=6");
  expect(onlyServing.body.types).toEqual(["Serving"]);
  expect(onlyServing.body.layers.flatMap((l: { elements: { id: string }[] }) => l.elements.map((e) => e.id))).toEqual([
    "e-policy",
  ]);
  // Associations are followed only when asked for: then the LAN relates both ways.
  const associated = await org.viewer.get("/api/elements/e-mainframe/impact?types=Association&depth=2");
  expect(
    associated.body.layers.flatMap((l: { elements: { id: string }[] }) => l.elements.map((e) => e.id)).sort(),
  ).toEqual(["e-lan", "e-servers"]);
  const both = await org.viewer.get("/api/elements/e-dbms/impact?direction=both&depth=1");
  expect(both.body.count).toBe(1);
});

test("an answer follows the last change without any rebuild", async () => {
  const app = await org.editor.post("/api/elements", { name: "Claims reporting", type: "ApplicationComponent" });
  await org.editor.post("/api/relationships", { type: "Serving", source: "e-ts-claims", target: app.body.id });
  const res = await org.viewer.get("/api/elements/e-mainframe/impact?depth=2");
  expect(res.body.layers.flatMap((l: { elements: { name: string }[] }) => l.elements.map((e) => e.name))).toContain(
    "Claims reporting",
  );
});

test("bad input: depth outside 1..6 and unknown types are 422; another workspace's element is 404", async () => {
  for (const depth of ["0", "7", "two"]) {
    const res = await org.viewer.get(`/api/elements/e-mainframe/impact?depth=${depth}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("query.depth");
  }
  const direction = await org.viewer.get("/api/elements/e-mainframe/impact?direction=sideways");
  expect(direction.status).toBe(422);
  const types = await org.viewer.get("/api/elements/e-mainframe/impact?types=Serving,Telepathy");
  expect(types.status).toBe(422);
  expect(types.body.detail).toContain("'Telepathy' is not an ArchiMate 3.1 relationship type");
  expect((await other.owner.get("/api/elements/e-mainframe/impact")).status).toBe(404);
});

test("a view of the affected elements laid out by layer, made with the view verbs and recorded as changes", async () => {
  const impact = await org.viewer.get("/api/elements/e-mainframe/impact?depth=4");
  const ids = [
    "e-mainframe",
    ...impact.body.layers.flatMap((l: { elements: { id: string }[] }) => l.elements.map((e) => e.id)),
  ];
  const view = await org.editor.post("/api/views", { name: "What depends on the Mainframe", viewpoint: "Layered" });
  const added = await org.editor.post(`/api/views/${view.body.id}/elements`, { element_ids: ids, layout: "layered" });
  expect(added.status).toBe(201);
  expect(added.body.added).toHaveLength(ids.length);
  expect(added.body.connections.length).toBeGreaterThanOrEqual(ids.length - 1);
  const y = (id: string) => added.body.added.find((n: { element_id: string }) => n.element_id === id).y;
  // Layers top to bottom: the business processes above the applications above the technology.
  expect(y("e-accept")).toBeLessThan(y("e-policy"));
  expect(y("e-policy")).toBeLessThan(Math.min(y("e-ts-claims"), y("e-mainframe")));
  const history = await org.viewer.get(`/api/views/${view.body.id}/history`);
  expect(history.status).toBe(200);
  expect(JSON.stringify(history.body)).toContain(`Added ${ids.length} elements`);
  expect((await org.viewer.post(`/api/views/${view.body.id}/elements`, { element_ids: ids })).status).toBe(403);
});

test("a view made with its elements in one change: nodes, connections, laid out by layer; a bad id leaves nothing", async () => {
  const impact = await org.viewer.get("/api/elements/e-mainframe/impact?depth=2");
  const ids = [
    "e-mainframe",
    ...impact.body.layers.flatMap((l: { elements: { id: string }[] }) => l.elements.map((e) => e.id)),
  ];
  const before = (await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?limit=1`)).body;
  const view = await org.editor.post("/api/views", { name: "Impact of Mainframe", element_ids: ids });
  expect(view.status).toBe(201);
  expect(view.body.nodes.map((n: { element_id: string }) => n.element_id).sort()).toEqual([...ids].sort());
  expect(view.body.connections.length).toBeGreaterThanOrEqual(ids.length - 1);
  const y = (id: string) => view.body.nodes.find((n: { element_id: string }) => n.element_id === id).y;
  expect(y("e-policy")).toBeLessThan(y("e-mainframe"));
  // One change group for the view and its content.
  const after = (await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?limit=1`)).body;
  expect(after.items[0].revision).toBe(before.items[0].revision + 1);
  expect(after.items[0].summary).toBe(`Created view 'Impact of Mainframe' with ${ids.length} elements`);

  const views = (await org.viewer.get("/api/views")).body.length;
  const bad = await org.editor.post("/api/views", { name: "Broken", element_ids: ["e-mainframe", "e-nowhere"] });
  expect(bad.status).toBe(422);
  expect(JSON.stringify(bad.body)).toContain("e-nowhere");
  expect((await org.viewer.get("/api/views")).body.length).toBe(views);
});
