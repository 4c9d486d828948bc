import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(() => h.close());

describe("property definitions and values", () => {
  test("every workspace has the read-only system definition", async () => {
    const defs = (await org.viewer.get("/api/property-definitions")).body;
    const sys = defs.find((d: { name: string }) => d.name === "Service Plugin IconPack");
    expect(sys).toMatchObject({ is_system: true, type: "string" });
    expect((await org.owner.put(`/api/property-definitions/${sys.id}`, { name: "x" })).status).toBe(409);
    expect((await org.owner.delete(`/api/property-definitions/${sys.id}`)).status).toBe(409);
  });

  test("values must name a definition and fit its type", async () => {
    const cost = (await org.editor.post("/api/property-definitions", { name: "Cost", type: "number" })).body;
    expect(cost).toMatchObject({ name: "Cost", type: "number", is_system: false });
    await org.editor.post("/api/property-definitions", { name: "Live", type: "boolean" });
    await org.editor.post("/api/property-definitions", { name: "Since", type: "date" });
    const ok = await org.editor.post("/api/elements", {
      name: "CRM",
      type: "ApplicationComponent",
      properties: { Cost: 12.5, Live: true, Since: "2024-02-01" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.properties).toEqual({ Cost: 12.5, Live: true, Since: "2024-02-01" });
    const bad = await org.editor.post("/api/elements", {
      name: "X",
      type: "Node",
      properties: { Cost: "cheap", Owner: "me" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      "properties.Cost",
      "properties.Owner",
    ]);
    const upd = await org.editor.put(`/api/elements/${ok.body.id}`, { properties: { Live: null, Cost: 13 } });
    expect(upd.body.properties).toEqual({ Cost: 13, Since: "2024-02-01" });
    const dup = await org.editor.post("/api/property-definitions", { name: "cost" });
    expect(dup.status).toBe(409);
    const badType = await org.editor.put(`/api/property-definitions/${cost.id}`, { type: "boolean" });
    expect(badType.status).toBe(422);
    expect((await org.editor.delete(`/api/property-definitions/${cost.id}`)).status).toBe(204);
    expect((await org.viewer.get(`/api/elements/${ok.body.id}`)).body.properties).toEqual({ Since: "2024-02-01" });
  });
});
