import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
const el = async (name: string, type: string) =>
  (await org.editor.post("/api/elements", { name, type })).body.id as string;
beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(() => h.close());

describe("relationships", () => {
  test("a relationship allowed by the 3.1 table is created and read back", async () => {
    const app = await el("CRM", "ApplicationComponent");
    const proc = await el("Handle claim", "BusinessProcess");
    const res = await org.editor.post("/api/relationships", {
      type: "serving relationship",
      source: app,
      target: proc,
      name: "supports",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "Serving", source: app, target: proc, name: "supports", properties: {} });
    expect(res.body).not.toHaveProperty("access_type");
    const list = await org.viewer.get(`/api/relationships?source_id=${app}&type=Serving`);
    expect(list.body.map((r: { id: string }) => r.id)).toEqual([res.body.id]);
    const touching = await org.viewer.get(`/api/elements/${proc}/relationships`);
    expect(touching.body).toHaveLength(1);
  });

  test("the relationships of an element carry their own property values, and only theirs", async () => {
    const own = await h.organization();
    expect((await own.editor.post("/api/property-definitions", { name: "Protocol", type: "string" })).status).toBe(201);
    const node = (await own.editor.post("/api/elements", { name: "Server", type: "Node" })).body.id;
    const device = (await own.editor.post("/api/elements", { name: "Disk", type: "Device" })).body.id;
    const other = (await own.editor.post("/api/elements", { name: "Other", type: "Device" })).body.id;
    const link = await own.editor.post("/api/relationships", {
      type: "Association",
      source: node,
      target: device,
      properties: { Protocol: "iSCSI" },
    });
    expect(link.status).toBe(201);
    await own.editor.post("/api/relationships", { type: "Association", source: node, target: other });
    const touching = await own.viewer.get(`/api/elements/${device}/relationships`);
    expect(touching.body).toEqual([expect.objectContaining({ id: link.body.id, properties: { Protocol: "iSCSI" } })]);
    const fromNode = await own.viewer.get(`/api/elements/${node}/relationships`);
    expect(fromNode.body.map((r: { properties: object }) => r.properties)).toEqual([{ Protocol: "iSCSI" }, {}]);
  });

  test("a relationship the table forbids is refused with 422 naming the rule", async () => {
    const data = await el("Policy data", "DataObject");
    const proc = await el("Pay", "BusinessProcess");
    const res = await org.editor.post("/api/relationships", { type: "Serving", source: data, target: proc });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("does not allow a Serving relationship from DataObject to BusinessProcess");
  });

  test("access_type only on Access, is_directed only on Association, influence_strength only on Influence", async () => {
    const proc = await el("Register", "ApplicationProcess");
    const data = await el("Customer file", "DataObject");
    const access = await org.editor.post("/api/relationships", {
      type: "Access",
      source: proc,
      target: data,
      access_type: "Read",
    });
    expect(access.status).toBe(201);
    expect(access.body.access_type).toBe("Read");
    const badAccess = await org.editor.post("/api/relationships", {
      type: "Access",
      source: proc,
      target: data,
      access_type: "Delete",
    });
    expect(badAccess.status).toBe(422);
    const misplaced = await org.editor.post("/api/relationships", {
      type: "Association",
      source: proc,
      target: data,
      access_type: "Read",
    });
    expect(misplaced.status).toBe(422);
    expect(misplaced.body.errors[0].path).toBe("access_type");
    const assoc = await org.editor.post("/api/relationships", {
      type: "Association",
      source: proc,
      target: data,
      is_directed: true,
    });
    expect(assoc.body.is_directed).toBe(true);
    const goal = await el("Grow", "Goal");
    const driver = await el("Market", "Driver");
    const influence = await org.editor.post("/api/relationships", {
      type: "Influence",
      source: driver,
      target: goal,
      influence_strength: "++",
    });
    expect(influence.body.influence_strength).toBe("++");
    const badInfluence = await org.editor.post("/api/relationships", {
      type: "Influence",
      source: driver,
      target: goal,
      influence_strength: "+++",
    });
    expect(badInfluence.status).toBe(422);
  });

  test("relationships on relationships, and deleting an element cascades through them", async () => {
    const a = await el("A", "ApplicationComponent");
    const b = await el("B", "ApplicationComponent");
    const note = await el("Why", "Requirement");
    const flow = (await org.editor.post("/api/relationships", { type: "Flow", source: a, target: b })).body.id;
    const onRel = await org.editor.post("/api/relationships", { type: "Association", source: note, target: flow });
    expect(onRel.status).toBe(201);
    expect((await org.editor.delete(`/api/elements/${a}`)).status).toBe(204);
    expect((await org.viewer.get(`/api/relationships/${flow}`)).status).toBe(404);
    expect((await org.viewer.get(`/api/relationships/${onRel.body.id}`)).status).toBe(404);
    expect((await org.viewer.get(`/api/elements/${note}`)).status).toBe(200);
  });

  test("a dangling endpoint is refused and an endpoint of another workspace is invisible", async () => {
    const other = await h.organization();
    const foreign = (await other.owner.post("/api/elements", { name: "F", type: "Node" })).body.id;
    const mine = await el("Mine", "Node");
    const res = await org.editor.post("/api/relationships", { type: "Association", source: mine, target: foreign });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("target");
  });

  test("changing an element's type is refused when it would break a relationship", async () => {
    const app = await el("Portal", "ApplicationComponent");
    const svc = await el("Quote", "ApplicationService");
    await org.editor.post("/api/relationships", { type: "Realization", source: app, target: svc });
    const res = await org.editor.put(`/api/elements/${app}`, { type: "Goal" });
    expect(res.status).toBe(422);
    expect((await org.viewer.get(`/api/elements/${app}`)).body.type).toBe("ApplicationComponent");
  });

  test("update validates the new combination and types are listed sorted", async () => {
    const a = await el("N1", "Node");
    const b = await el("N2", "Node");
    const rel = (await org.editor.post("/api/relationships", { type: "Association", source: a, target: b })).body;
    const res = await org.editor.put(`/api/relationships/${rel.id}`, { type: "Composition", name: "part" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: "Composition", name: "part" });
    expect(res.body).not.toHaveProperty("is_directed");
    const types = (await org.viewer.get("/api/relationships/types")).body;
    expect(types).toEqual([...types].sort());
  });
});
