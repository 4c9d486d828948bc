/**
 * The list verbs' memory per workspace revision (packages/model/src/list-memory.ts), on real PostgreSQL: an unchanged
 * workspace's list is answered from memory, and every kind of change (an update, a property value, a cascading
 * delete, its revert, a restore) is seen by the next read, also while other readers keep the memory full.
 */
import { sql } from "@ams/db";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
beforeAll(async () => {
  h = await tenantHarness();
});
afterAll(() => h.close());

type Named = { id: string; name: string | null; properties: Record<string, unknown> };

async function model(org: OrgFixture) {
  await org.editor.post("/api/property-definitions", { name: "Owner", type: "string" });
  const a = (await org.editor.post("/api/elements", { name: "CRM", type: "ApplicationComponent" })).body.id as string;
  const b = (await org.editor.post("/api/elements", { name: "Billing", type: "ApplicationComponent" })).body
    .id as string;
  const link = await org.editor.post("/api/relationships", { type: "Flow", source: a, target: b, name: "invoices" });
  expect(link.status).toBe(201);
  return { a, b, link: link.body.id as string };
}

const names = async (org: OrgFixture, path: string) =>
  ((await org.viewer.get(path)).body as Named[]).map((x) => x.name);

describe("lists remembered per workspace revision", () => {
  test("an unchanged workspace's list is answered from memory; the next change is seen at once", async () => {
    const org = await h.organization();
    const { a } = await model(org);
    expect(await names(org, "/api/elements")).toEqual(["CRM", "Billing"]);
    expect(await names(org, "/api/relationships")).toEqual(["invoices"]);
    // Behind the change log's back (capture off: the product never writes so): the revision stays, so the remembered
    // answers stand. This is what shows the memory answers at all.
    await h.database.db.transaction(async (tx) => {
      await h.database.rows(sql`select set_config('ams.capture', 'off', true)`, tx);
      await h.database.rows(sql`update elements set name = 'Hidden' where id = ${a}`, tx);
      await h.database.rows(sql`update relationships set name = 'hidden' where workspace_id = ${org.workspaceId}`, tx);
    });
    expect(await names(org, "/api/elements")).toEqual(["CRM", "Billing"]);
    expect(await names(org, "/api/relationships")).toEqual(["invoices"]);
    // A query not asked before is read from the database.
    expect(await names(org, "/api/elements?name=i")).toEqual(["Hidden", "Billing"]);
    // Any change through the product moves the revision: every list is read again.
    expect((await org.editor.post("/api/elements", { name: "ERP", type: "ApplicationComponent" })).status).toBe(201);
    expect(await names(org, "/api/elements")).toEqual(["Hidden", "Billing", "ERP"]);
    expect(await names(org, "/api/relationships")).toEqual(["hidden"]);
  });

  test("updates, property values, a cascading delete, its revert and a restore are each seen by the next read", async () => {
    const org = await h.organization();
    const { a, link } = await model(org);
    const relationships = async () => (await org.viewer.get("/api/relationships")).body as Named[];
    const page = async () => (await org.viewer.get("/api/elements?limit=1")).body as Named[];
    expect(await relationships()).toMatchObject([{ name: "invoices", properties: {} }]);
    expect(await page()).toMatchObject([{ name: "CRM" }]);
    const version = await org.editor.post(`/api/workspaces/${org.workspaceId}/versions`, { name: "Before" });
    expect(version.status).toBe(201);

    expect((await org.editor.put(`/api/relationships/${link}`, { name: "sends invoices" })).status).toBe(200);
    expect(await relationships()).toMatchObject([{ name: "sends invoices" }]);
    const owned = await org.editor.put(`/api/relationships/${link}`, { properties: { Owner: "Finance" } });
    expect(owned.status).toBe(200);
    expect(await relationships()).toMatchObject([{ name: "sends invoices", properties: { Owner: "Finance" } }]);
    expect((await org.editor.put(`/api/elements/${a}`, { name: "CRM 2" })).status).toBe(200);
    expect(await page()).toMatchObject([{ name: "CRM 2" }]);

    // Deleting the element takes its relationship with it, in one change group.
    expect((await org.editor.delete(`/api/elements/${a}`)).status).toBe(204);
    expect(await relationships()).toEqual([]);
    expect(await page()).toMatchObject([{ name: "Billing" }]);
    const [deleted] = (await org.viewer.get(`/api/workspaces/${org.workspaceId}/history?limit=1`)).body.items;
    const reverted = await org.editor.post(`/api/workspaces/${org.workspaceId}/history/${deleted.revision}/revert`);
    expect(reverted.status).toBe(200);
    expect(await relationships()).toMatchObject([{ id: link, name: "sends invoices" }]);
    expect(await page()).toMatchObject([{ id: a, name: "CRM 2" }]);

    const restored = await org.owner.post(`/api/workspaces/${org.workspaceId}/restore`, { version: version.body.id });
    expect(restored.status).toBe(200);
    expect(await relationships()).toMatchObject([{ name: "invoices", properties: {} }]);
    expect(await page()).toMatchObject([{ name: "CRM" }]);
  });

  test("a write is seen by the read that follows it while other readers keep the memory full", async () => {
    const org = await h.organization();
    const { link } = await model(org);
    let reading = true;
    const readers = Array.from({ length: 4 }, async () => {
      while (reading) await org.viewer.get("/api/relationships");
    });
    try {
      for (let i = 0; i < 25; i++) {
        const put = await org.editor.put(`/api/relationships/${link}`, { name: `flow ${i}` });
        expect(put.status).toBe(200);
        expect(await names(org, "/api/relationships")).toEqual([`flow ${i}`]);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });

  test("two workspaces, and two filters of one, never answer each other's list", async () => {
    const one = await h.organization();
    const two = await h.organization();
    await model(one);
    await two.editor.post("/api/elements", { name: "Only in two", type: "Node" });
    expect(await names(one, "/api/elements")).toEqual(["CRM", "Billing"]);
    expect(await names(two, "/api/elements")).toEqual(["Only in two"]);
    expect(await names(one, "/api/elements?name=bill")).toEqual(["Billing"]);
    expect(await names(one, "/api/elements?type=Node")).toEqual([]);
  });
});
