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

  test("an enumeration carries its allowed values and refuses a value outside them", async () => {
    const noList = await org.editor.post("/api/property-definitions", { name: "Phase", type: "enumeration" });
    expect(noList.status).toBe(422);
    expect(noList.body.errors[0].path).toBe("allowed_values");
    const onString = await org.editor.post("/api/property-definitions", { name: "P", allowed_values: ["a"] });
    expect(onString.status).toBe(422);
    expect(onString.body.detail).toContain("only an enumeration has allowed values");
    const twice = await org.editor.post("/api/property-definitions", {
      name: "Phase",
      type: "enumeration",
      allowed_values: ["Plan", "Plan"],
    });
    expect(twice.body.detail).toContain("'Plan' is listed twice");
    const phase = await org.editor.post("/api/property-definitions", {
      name: "Phase",
      type: "enumeration",
      allowed_values: ["Plan", "Build", "Run"],
    });
    expect(phase.status).toBe(201);
    expect(phase.body).toMatchObject({ type: "enumeration", allowed_values: ["Plan", "Build", "Run"] });
    expect((await org.viewer.get(`/api/property-definitions/${phase.body.id}`)).body.allowed_values).toEqual([
      "Plan",
      "Build",
      "Run",
    ]);
    const el = await org.editor.post("/api/elements", {
      name: "Billing",
      type: "ApplicationComponent",
      properties: { Phase: "Run" },
    });
    expect(el.status).toBe(201);
    expect(el.body.properties).toEqual({ Phase: "Run" });
    const outside = await org.editor.put(`/api/elements/${el.body.id}`, { properties: { Phase: "Retire" } });
    expect(outside.status).toBe(422);
    expect(outside.body.errors).toEqual([
      {
        path: "properties.Phase",
        message: "must be one of 'Plan', 'Build', 'Run' (definition 'Phase' is an enumeration)",
      },
    ]);
    // A list that drops a stored value is refused; one that keeps it is taken.
    const drops = await org.editor.put(`/api/property-definitions/${phase.body.id}`, { allowed_values: ["Plan"] });
    expect(drops.status).toBe(422);
    expect(drops.body.detail).toContain("'Run' is not in the list");
    const grows = await org.editor.put(`/api/property-definitions/${phase.body.id}`, {
      allowed_values: ["Plan", "Build", "Run", "Retire"],
    });
    expect(grows.body.allowed_values).toHaveLength(4);
    expect((await org.editor.put(`/api/elements/${el.body.id}`, { properties: { Phase: "Retire" } })).status).toBe(200);
    // Back to string: the list goes.
    const backToString = await org.editor.put(`/api/property-definitions/${phase.body.id}`, { type: "string" });
    expect(backToString.body).toMatchObject({ type: "string", allowed_values: null });
    const plain = (await org.viewer.get("/api/property-definitions")).body.find(
      (d: { name: string }) => d.name === "Cost",
    );
    expect(plain === undefined || plain.allowed_values === null).toBe(true);
  });

  test("thousands of unknown keys get a short answer naming the first ones", async () => {
    const body: Record<string, unknown> = { name: "X", type: "Node" };
    for (let i = 0; i < 5000; i++) body[`junk_${i}`] = i;
    const res = await org.editor.post("/api/elements", body);
    expect(res.status).toBe(422);
    expect(res.text.length).toBeLessThan(2000);
    expect(res.body.detail).toContain("5,000 unrecognized keys (junk_0, junk_1");
    expect(res.body.detail).toContain("and 4,980 more");
  });
});
