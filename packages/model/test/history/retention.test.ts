import { type Database, openDatabase, sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  compactHistory,
  compactWorkspaceHistory,
  createConnection,
  createElement,
  createNode,
  createPropertyDefinition,
  createRelationship,
  createVersion,
  createView,
  deleteElement,
  deleteVersion,
  diffRevisions,
  exportModel,
  getElement,
  getElementHistory,
  getWorkspaceHistory,
  type RequestContext,
  renderViewImage,
  restoreObject,
  revertChange,
  updateElement,
  updateNode,
} from "../../src/index.ts";
import { currentRevision, groups, ownerContext } from "./support.ts";

/** Retention of the change log (HISTORY_RETENTION_DAYS) on real PostgreSQL: compaction keeps what versions need. */
let database: TestDatabase;
let pool: Database;
beforeAll(async () => {
  database = await createTestDatabase("ams_history_retention");
  pool = await openDatabase({ url: database.url, maxConnections: 8, migrate: false });
});
afterAll(async () => {
  await pool?.close();
  await database?.drop();
});

const RETENTION_DAYS = 30;

/** CRM and Billing, Billing serves CRM, both on view Landscape with the relationship's connection. */
async function seeded() {
  const ctx = await ownerContext(database);
  await createPropertyDefinition({ ctx, input: { id: "owner", name: "Owner", type: "string" } });
  await createElement({ ctx, input: { id: "crm", name: "CRM", type: "ApplicationComponent" } });
  await createElement({ ctx, input: { id: "billing", name: "Billing", type: "ApplicationComponent" } });
  await createRelationship({ ctx, input: { id: "serves", type: "Serving", source: "billing", target: "crm" } });
  await createView({ ctx, input: { id: "landscape", name: "Landscape" } });
  await createNode({ ctx, input: { view_id: "landscape", id: "n-crm", element_id: "crm", x: 10, y: 10 } });
  await createNode({ ctx, input: { view_id: "landscape", id: "n-billing", element_id: "billing", x: 300, y: 10 } });
  await createConnection({
    ctx,
    input: { view_id: "landscape", id: "c-serves", source: "n-billing", target: "n-crm", relationship_id: "serves" },
  });
  return ctx;
}

/**
 * A history that crosses the retention: version "Before lunch", a rename, a move, a property, version "Noon", a
 * rename of Billing and the deletion of CRM (with its relationship, nodes, connection), all 90 days old; then two
 * recent changes.
 */
async function agedHistory(ctx: RequestContext) {
  const ws = ctx.workspaceId ?? "";
  const lunch = await createVersion({ ctx, input: { name: "Before lunch" } });
  await updateElement({ ctx, input: { id: "crm", name: "CRM system" } });
  await updateNode({ ctx, input: { view_id: "landscape", id: "n-crm", x: 40, y: 80 } });
  await updateElement({ ctx, input: { id: "crm", properties: { Owner: "Sales" } } });
  const noon = await createVersion({ ctx, input: { name: "Noon" } });
  await updateElement({ ctx, input: { id: "billing", name: "Billing 2" } });
  await deleteElement({ ctx, input: { id: "crm" } });
  const aged = await currentRevision(database, ws);
  await database.rows(sql`update change_groups set created_at = now() - interval '90 days' where workspace_id = ${ws}`);
  await createElement({ ctx, input: { id: "erp", name: "ERP", type: "ApplicationComponent" } });
  await updateElement({ ctx, input: { id: "billing", name: "Billing 3" } });
  return { lunch, noon, aged };
}

/** Everything a reader can get of the versions' past states: exports, diffs, a past view's picture. */
async function pastStates(ctx: RequestContext, lunch: string, noon: string) {
  const out: Record<string, unknown> = {};
  out.exportLunch = (await exportModel({ ctx, input: { version: lunch } })).xml;
  out.exportNoon = (await exportModel({ ctx, input: { version: noon } })).xml;
  out.exportNow = (await exportModel({ ctx })).xml;
  const strip = (d: Awaited<ReturnType<typeof diffRevisions>>) => ({ ...d, from: d.from.revision, to: d.to.revision });
  out.lunchToNoon = strip(await diffRevisions({ ctx, input: { from: lunch, to: noon } }));
  out.noonToLunch = strip(await diffRevisions({ ctx, input: { from: noon, to: lunch } }));
  out.lunchToNow = strip(await diffRevisions({ ctx, input: { from: lunch } }));
  out.noonToNow = strip(await diffRevisions({ ctx, input: { from: noon, to: "current" } }));
  out.picture = (await renderViewImage({ ctx, input: { id: "landscape", format: "svg", version: lunch } })).data;
  return out;
}

/** The detail the log keeps: "revision kind object op" of the entries that still have before or after. */
async function detailed(ws: string, through: number) {
  const rows = await database.rows<{ line: string }>(
    sql`select revision || ' ' || kind || ' ' || object_id || ' ' || op as line from change_entries
        where workspace_id = ${ws} and revision <= ${through} and (before is not null or after is not null)
        order by revision, seq`,
  );
  return rows.map((r) => r.line);
}

const problem = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message ?? "" }),
  );

describe("history retention", () => {
  test("a version older than the retention exports and diffs identically after compaction", async () => {
    const ctx = await seeded();
    const ws = ctx.workspaceId ?? "";
    const { lunch, noon, aged } = await agedHistory(ctx);
    const before = await pastStates(ctx, lunch.id, noon.id);
    expect(before.exportLunch).toContain(">CRM<");
    expect((before.lunchToNow as { elements: { removed: unknown[] } }).elements.removed).toHaveLength(1);

    const done = await compactWorkspaceHistory(database, ws, RETENTION_DAYS, new Date());
    expect(done).toMatchObject({ workspaceId: ws, through: aged });
    expect(done?.compacted).toBeGreaterThan(0);
    expect(await pastStates(ctx, lunch.id, noon.id)).toEqual(before);

    // What stays is only what a version needs: each object's first entry after "Before lunch" or after "Noon".
    const kept = await detailed(ws, aged);
    const r = lunch.revision;
    expect(kept).toContain(`${r + 1} element crm update`);
    expect(kept).toContain(`${r + 2} node n-crm update`);
    expect(kept).toContain(`${r + 4} element billing update`);
    expect(kept).toContain(`${r + 5} relationship serves delete`);
    expect(kept).not.toContain(`${r + 3} element crm update`); // crm's second change after lunch, before noon
    expect(kept.every((line) => Number(line.split(" ")[0]) > r)).toBe(true); // nothing of the seed
    // Every group stays, with its entries' identities.
    expect((await groups(database, ws)).length).toBe(await currentRevision(database, ws));
  });

  test("reading a compacted history: groups with who, when and summary, and detail_compacted", async () => {
    const ctx = await seeded();
    const ws = ctx.workspaceId ?? "";
    const { lunch, aged } = await agedHistory(ctx);
    await compactWorkspaceHistory(database, ws, RETENTION_DAYS, new Date());

    const page = await getWorkspaceHistory({ ctx, input: { id: ws, limit: 200 } });
    expect(page.items.map((i) => i.revision)).toEqual(Array.from({ length: aged + 2 }, (_, i) => aged + 2 - i));
    const recent = page.items.filter((i) => i.revision > aged);
    expect(recent.every((i) => !i.detail_compacted)).toBe(true);
    const old = page.items.filter((i) => i.revision <= aged);
    expect(old.every((i) => i.detail_compacted && i.actor.name === "Ana Lima" && i.summary.length > 0)).toBe(true);
    const created = old.find((i) => i.objects.some((o) => o.id === "billing" && o.op === "create"));
    expect(created?.objects.find((o) => o.id === "billing")).toEqual({
      kind: "element",
      id: "billing",
      op: "create",
      name: "Billing 3", // its detail is gone: named as it is now
    });

    const history = await getElementHistory({ ctx, input: { id: "billing" } });
    const [latest, renamedOld, ...older] = history.items;
    expect(latest).toMatchObject({ detail_compacted: false, fields: [{ field: "name", before: "Billing 2" }] });
    // Kept for "Noon" (Billing's first change after it): still field by field.
    expect(renamedOld).toMatchObject({ detail_compacted: false, fields: [{ field: "name", after: "Billing 2" }] });
    expect(older.length).toBeGreaterThan(0);
    for (const item of older) {
      expect(item).toMatchObject({ detail_compacted: true, fields: [], actor: { name: "Ana Lima" } });
      expect(item.revision).toBeLessThan(lunch.revision + 1);
    }

    // A compacted revision no version names is refused clearly; a version's state still restores.
    const diffProblem = await problem(diffRevisions({ ctx, input: { from: String(lunch.revision + 1) } }));
    expect(diffProblem?.code).toBe("VALIDATION");
    expect(diffProblem?.message).toContain("HISTORY_RETENTION_DAYS");
    const revertProblem = await problem(revertChange({ ctx, input: { revision: aged } }));
    expect(revertProblem?.code).toBe("CONFLICT");
    expect(revertProblem?.message).toContain(`compacted the history through revision ${aged}`);
    expect(
      await problem(restoreObject({ ctx, input: { kind: "element", id: "crm", revision: lunch.revision + 1 } })),
    ).toMatchObject({ code: "VALIDATION" });
    await restoreObject({ ctx, input: { kind: "element", id: "crm", revision: lunch.revision } });
    expect(await getElement({ ctx, input: { id: "crm" } })).toMatchObject({ name: "CRM", properties: {} });
  });

  test("compaction is idempotent, safe beside other compactions and writers; a deleted version releases its detail", async () => {
    const ctx = await seeded();
    const ws = ctx.workspaceId ?? "";
    const { lunch, noon, aged } = await agedHistory(ctx);
    const before = await pastStates(ctx, lunch.id, noon.id);
    const writer = { ...ctx, database: pool };
    const start = await currentRevision(database, ws);
    const now = new Date();
    const [a, b, c, all] = await Promise.all([
      compactWorkspaceHistory(pool, ws, RETENTION_DAYS, now),
      compactWorkspaceHistory(pool, ws, RETENTION_DAYS, now),
      compactWorkspaceHistory(pool, ws, RETENTION_DAYS, now),
      compactHistory(pool, RETENTION_DAYS, now),
      ...Array.from({ length: 5 }, (_, i) => updateElement({ ctx: writer, input: { id: "erp", name: `ERP ${i}` } })),
    ]);
    const mine = [a, b, c, all.find((w) => w.workspaceId === ws) ?? null].filter((x) => x !== null);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.through).toBe(aged);
    // The writers' revisions are gapless after the compacted ones, each in the log.
    expect((await groups(database, ws)).map((g) => g.revision)).toEqual(
      Array.from({ length: start + 5 }, (_, i) => i + 1),
    );
    const kept = await detailed(ws, aged);
    expect(await compactWorkspaceHistory(database, ws, RETENTION_DAYS, new Date())).toBeNull();
    expect(await detailed(ws, aged)).toEqual(kept);
    const after = await pastStates(ctx, lunch.id, noon.id);
    expect({ ...after, exportNow: null, lunchToNow: null, noonToNow: null }).toEqual({
      ...before,
      exportNow: null,
      lunchToNow: null,
      noonToNow: null,
    });

    // Deleting "Before lunch" lets the next run (once there is more to compact) drop what only it needed.
    await deleteVersion({ ctx, input: { versionId: lunch.id } });
    await database.rows(
      sql`update change_groups set created_at = now() - interval '90 days' where workspace_id = ${ws}`,
    );
    const again = await compactWorkspaceHistory(database, ws, RETENTION_DAYS, new Date());
    expect(again?.through).toBe(await currentRevision(database, ws));
    const released = await detailed(ws, aged);
    expect(released).not.toContain(`${lunch.revision + 1} element crm update`);
    expect(released).toContain(`${lunch.revision + 4} element billing update`); // Noon's
    const noonNow = await pastStates(ctx, noon.id, noon.id);
    expect(noonNow.exportNoon).toEqual(before.exportNoon);
  });
});
