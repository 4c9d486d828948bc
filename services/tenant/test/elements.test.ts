import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(() => h.close());

describe("elements", () => {
  test("create accepts the display name and answers with the exchange name", async () => {
    const res = await org.editor.post("/api/elements", {
      name: "CRM",
      type: "application component",
      documentation: "Customer data",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "CRM",
      type: "ApplicationComponent",
      documentation: "Customer data",
      properties: {},
    });
    expect(res.body.id).toMatch(/^id-/);
    const got = await org.viewer.get(`/api/elements/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test("an unknown type is refused with 422 naming the field", async () => {
    const res = await org.editor.post("/api/elements", { name: "X", type: "Spaceship" });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body.errors[0].path).toBe("type");
    expect(res.body.detail).toContain("Spaceship");
  });

  test("unknown fields, wrong types and malformed JSON are refused", async () => {
    const unknown = await org.editor.post("/api/elements", { name: "X", type: "Node", colour: "red" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toContain("colour");
    const wrong = await org.editor.post("/api/elements", { name: 42, type: "Node" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].path).toBe("name");
    const malformed = await org.editor.post("/api/elements", '{"name": "X", ');
    expect(malformed.status).toBe(400);
  });

  test("a 2 MB name is refused by the body limit with 413", async () => {
    const res = await org.editor.post("/api/elements", { name: "x".repeat(2 * 1024 * 1024), type: "Node" });
    expect(res.status).toBe(413);
  });

  test("a viewer cannot write", async () => {
    const res = await org.viewer.post("/api/elements", { name: "X", type: "Node" });
    expect(res.status).toBe(403);
  });

  test("list filters by type and case-insensitive name substring, in creation order", async () => {
    await org.editor.post("/api/elements", { name: "Billing Service", type: "ApplicationService" });
    await org.editor.post("/api/elements", { name: "billing db", type: "DataObject" });
    const byName = await org.viewer.get("/api/elements?name=BILLING");
    expect(byName.body.map((e: { name: string }) => e.name)).toEqual(["Billing Service", "billing db"]);
    const byType = await org.viewer.get("/api/elements?type=Data%20Object");
    expect(byType.body.map((e: { name: string }) => e.name)).toEqual(["billing db"]);
    const wildcard = await org.viewer.get("/api/elements?name=%25");
    expect(wildcard.body).toEqual([]);
    const types = await org.viewer.get("/api/elements/types");
    expect(types.body).toEqual([...types.body].sort());
    expect(types.body).toContain("DataObject");
  });

  test("a paged list walks the whole model in order, one page after another, with filters and properties", async () => {
    const own = await h.organization();
    const names = Array.from({ length: 7 }, (_, i) => `Page item ${i}`);
    expect((await own.editor.post("/api/property-definitions", { name: "Note", type: "string" })).status).toBe(201);
    for (const [i, name] of names.entries()) {
      const type = i % 2 ? "Node" : "Device";
      expect((await own.editor.post("/api/elements", { name, type, properties: { Note: `n${i}` } })).status).toBe(201);
    }
    const walk = async (query: string) => {
      const seen: { name: string; properties: Record<string, unknown> }[] = [];
      let after = "";
      for (let pages = 0; pages < 10; pages++) {
        const res = await own.viewer.get(`/api/elements?limit=3${query}${after ? `&after=${after}` : ""}`);
        expect(res.status).toBe(200);
        seen.push(...res.body);
        if (res.body.length < 3) return { seen, pages: pages + 1 };
        after = res.body.at(-1).id;
      }
      throw new Error("paging did not end");
    };
    const all = await walk("");
    expect(all.seen.map((e) => e.name)).toEqual(names);
    expect(all.pages).toBe(3);
    expect(all.seen[4]!.properties).toEqual({ Note: "n4" });
    const nodes = await walk("&type=Node");
    expect(nodes.seen.map((e) => e.name)).toEqual(names.filter((_, i) => i % 2));
  });

  test("a page after an unknown element, or of a bad size, is refused with 422 naming the parameter", async () => {
    const unknown = await org.viewer.get("/api/elements?limit=10&after=no-such-element");
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].path).toBe("query.after");
    expect(unknown.body.detail).toContain("no-such-element");
    for (const limit of ["0", "1001", "ten"]) {
      const res = await org.viewer.get(`/api/elements?limit=${limit}`);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].path).toBe("query.limit");
    }
  });

  test("partial update keeps what is not sent", async () => {
    const el = (await org.editor.post("/api/elements", { name: "Old", type: "Node", documentation: "doc" })).body;
    const res = await org.editor.put(`/api/elements/${el.id}`, { name: "New" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "New", documentation: "doc", type: "Node" });
  });

  test("an element of another organization answers 404 like a missing one", async () => {
    const other = await h.organization();
    const el = (await other.owner.post("/api/elements", { name: "Secret", type: "Node" })).body;
    const foreign = await org.owner.get(`/api/elements/${el.id}`);
    const missing = await org.owner.get("/api/elements/id-does-not-exist");
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((await org.owner.put(`/api/elements/${el.id}`, { name: "x" })).status).toBe(404);
    expect((await org.owner.delete(`/api/elements/${el.id}`)).status).toBe(404);
    expect((await other.owner.get(`/api/elements/${el.id}`)).body.name).toBe("Secret");
  });

  test("without a service token the tenant answers 401", async () => {
    const res = await h.call(null, "GET", "/api/elements");
    expect(res.status).toBe(401);
  });
});
