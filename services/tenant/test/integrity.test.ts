import { sql, type Tx } from "@ams/db";
import { emptyDocument, recordChange, replaceModel, SYSTEM_ACTOR } from "@ams/model";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

/**
 * Races that PGlite hides (it runs one statement at a time): these run on real PostgreSQL with a connection pool,
 * so the creates and the delete really interleave.
 */
let h: TenantHarness;
let org: OrgFixture;

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(async () => h?.close());

async function element(name: string, type = "ApplicationComponent"): Promise<string> {
  const res = await org.owner.post("/api/elements", { name, type });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Runs raw statements in a change group of their own, as every write to workspace content must be. */
function rawChange<T>(workspaceId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return h.database.db.transaction((tx) => recordChange(h.database, tx, workspaceId, SYSTEM_ACTOR, "Raw SQL", fn));
}

/** Relationships of the workspace whose source or target is neither an element nor a relationship. */
async function danglingRelationships(): Promise<number> {
  const [row] = await h.database.rows<{ n: number }>(
    sql`select count(*)::int as n from relationships r where r.workspace_id = ${org.workspaceId} and (
          (not exists (select 1 from elements e where e.workspace_id = r.workspace_id and e.id = r.source_id)
           and not exists (select 1 from relationships s where s.workspace_id = r.workspace_id and s.id = r.source_id))
       or (not exists (select 1 from elements e where e.workspace_id = r.workspace_id and e.id = r.target_id)
           and not exists (select 1 from relationships s where s.workspace_id = r.workspace_id and s.id = r.target_id)))`,
  );
  return row?.n ?? -1;
}

describe("relationships never outlive their endpoints", () => {
  test("60 races of four create-relationship requests against one delete-element leave nothing dangling", async () => {
    const statuses = new Map<number, number>();
    for (let round = 0; round < 60; round++) {
      const doomed = await element(`doomed ${round}`);
      const others = await Promise.all([0, 1, 2, 3].map((i) => element(`other ${round}.${i}`, "ApplicationService")));
      const results = await Promise.all([
        ...others.map((target) =>
          org.owner.post("/api/relationships", { type: "Serving", source: doomed, target: target }),
        ),
        org.owner.delete(`/api/elements/${doomed}`),
      ]);
      for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      // Every loser is told why in words, never a 500.
      for (const r of results.slice(0, 4)) {
        expect([201, 404, 409, 422], r.text).toContain(r.status);
        if (r.status === 409) expect(r.body.detail).toMatch(/deleted meanwhile/);
      }
      expect(results[4]?.status).toBe(204);
    }
    expect(await danglingRelationships()).toBe(0);
    // The element is gone, so every relationship created against it was either refused or removed with it.
    const [left] = await h.database.rows<{ n: number }>(
      sql`select count(*)::int as n from relationships where workspace_id = ${org.workspaceId} and source_id like 'id-%'
          and not exists (select 1 from elements e where e.workspace_id = relationships.workspace_id and e.id = source_id)`,
    );
    expect(left?.n).toBe(0);
    expect(statuses.get(500) ?? 0).toBe(0);
  });

  test("a relationship on a relationship goes when the relationship it is attached to goes, however it was deleted", async () => {
    const a = await element("A");
    const b = await element("B", "ApplicationService");
    const c = await element("C", "BusinessActor");
    const serving = await org.owner.post("/api/relationships", { type: "Serving", source: a, target: b });
    expect(serving.status).toBe(201);
    const assoc = await org.owner.post("/api/relationships", {
      type: "Association",
      source: c,
      target: serving.body.id,
    });
    expect(assoc.status).toBe(201);
    // Straight SQL, as an operator or a future code path might (in a change group, as the change log requires):
    // the database itself keeps the model whole.
    await rawChange(org.workspaceId, (tx) =>
      h.database.rows(sql`delete from elements where workspace_id = ${org.workspaceId} and id = ${a}`, tx),
    );
    expect((await org.owner.get(`/api/relationships/${serving.body.id}`)).status).toBe(404);
    expect((await org.owner.get(`/api/relationships/${assoc.body.id}`)).status).toBe(404);
    expect(await danglingRelationships()).toBe(0);
  });

  test("an insert naming a missing endpoint is refused by the database itself", async () => {
    const a = await element("lonely");
    await expect(
      rawChange(org.workspaceId, (tx) =>
        h.database.rows(
          sql`insert into relationships (workspace_id, id, ord, type, source_id, target_id)
              values (${org.workspaceId}, 'id-raw-1', 999999, 'Association', ${a}, 'id-does-not-exist')`,
          tx,
        ),
      ),
    ).rejects.toThrow(/target 'id-does-not-exist' of relationship 'id-raw-1' does not exist/);
  });
});

describe("view nodes against element deletion", () => {
  test("60 create-node vs delete-element races answer 201 or a 4xx that names the missing element, never 500", async () => {
    const view = await org.owner.post("/api/views", { name: "Race view" });
    expect(view.status).toBe(201);
    const seen = new Set<number>();
    for (let round = 0; round < 60; round++) {
      const el = await element(`node race ${round}`);
      const [node, del] = await Promise.all([
        org.owner.post(`/api/views/${view.body.id}/nodes`, { element_id: el, x: 10 * round, y: 10 }),
        org.owner.delete(`/api/elements/${el}`),
      ]);
      seen.add(node.status);
      expect([201, 404, 409, 422], node.text).toContain(node.status);
      expect(del.status).toBe(204);
    }
    expect(seen.has(500)).toBe(false);
    const [orphans] = await h.database.rows<{ n: number }>(
      sql`select count(*)::int as n from view_nodes n where n.workspace_id = ${org.workspaceId} and n.element_id is not null
          and not exists (select 1 from elements e where e.workspace_id = n.workspace_id and e.id = n.element_id)`,
    );
    expect(orphans?.n).toBe(0);
  });
});

describe("bulk imports and the endpoint check", () => {
  test("a relationship attached to one that comes 20,000 rows later (another insert chunk) imports", async () => {
    const doc = emptyDocument();
    doc.elements.push(
      { id: "e-1", ord: 0, type: "ApplicationComponent", name: "One", documentation: null, i18n: null },
      { id: "e-2", ord: 1, type: "ApplicationComponent", name: "Two", documentation: null, i18n: null },
    );
    const rel = (id: string, ord: number, type: string, sourceId: string, targetId: string) => ({
      id,
      ord,
      type,
      sourceId,
      targetId,
      name: null,
      documentation: null,
      isDirected: type === "Association" ? false : null,
      accessType: null,
      influenceStrength: null,
      i18n: null,
    });
    // First in file order, but attached to the very last relationship.
    doc.relationships.push(rel("r-first", 0, "Association", "e-1", "r-last"));
    for (let i = 1; i < 20_001; i++) doc.relationships.push(rel(`r-${i}`, i, "Flow", "e-1", "e-2"));
    doc.relationships.push(rel("r-last", 20_001, "Flow", "e-2", "e-1"));
    const o = await h.organization();
    await h.database.db.transaction((tx) => replaceModel(h.database, tx, o.workspaceId, doc));
    const [count] = await h.database.rows<{ n: number }>(
      sql`select count(*)::int as n from relationships where workspace_id = ${o.workspaceId}`,
    );
    expect(count?.n).toBe(20_002);
    const first = await o.owner.get("/api/relationships/r-first");
    expect(first.body).toMatchObject({ source: "e-1", target: "r-last" });
  });
});
