import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createConnection,
  createElement,
  createNode,
  createPropertyDefinition,
  createRelationship,
  createView,
  deleteElement,
  deletePropertyDefinition,
  deleteView,
  generateModel,
  getElement,
  importModel,
  type RequestContext,
  recordChange,
  SYSTEM_ACTOR,
  serializeExchange,
  updateConnection,
  updateElement,
  updateNode,
  updatePropertyDefinition,
  updateRelationship,
  updateView,
  withChange,
} from "../../src/index.ts";
import { currentRevision, entries, groups, ownerContext, touched } from "./support.ts";

/** The change log on real PostgreSQL: one group per action, with its entries, actor and way in. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_history");
});
afterAll(async () => database?.drop());

/** Runs a verb and answers the one group it recorded (failing when it recorded none or several). */
async function oneGroup(ctx: RequestContext, run: () => Promise<unknown>) {
  const ws = ctx.workspaceId ?? "";
  const before = await currentRevision(database, ws);
  await run();
  const after = await currentRevision(database, ws);
  expect(after, "exactly one change group").toBe(before + 1);
  const group = (await groups(database, ws)).at(-1);
  expect(group?.revision).toBe(after);
  return { group, touched: await touched(database, ws, after), entries: await entries(database, ws, after) };
}

describe("every write records one change group", () => {
  test("elements, relationships, views, nodes, connections and property definitions, with their entries", async () => {
    const ctx = await ownerContext(database, { kind: "browser", name: null });
    const created = await oneGroup(ctx, () =>
      createElement({ ctx, input: { id: "crm", name: "CRM", type: "ApplicationComponent" } }),
    );
    expect(created.group).toMatchObject({
      actor_id: ctx.userId,
      actor_name: "Ana Lima",
      via_kind: "browser",
      via_name: null,
      request_id: ctx.requestId,
      summary: "Created ApplicationComponent 'CRM'",
    });
    expect(created.entries).toEqual([
      expect.objectContaining({
        kind: "element",
        object_id: "crm",
        op: "create",
        before: null,
        after: { id: "crm", ord: 0, type: "ApplicationComponent", name: "CRM", documentation: null, i18n: null },
      }),
    ]);
    await createElement({ ctx, input: { id: "billing", name: "Billing", type: "ApplicationService" } });

    const renamed = await oneGroup(ctx, () => updateElement({ ctx, input: { id: "crm", name: "CRM system" } }));
    expect(renamed.group?.summary).toBe("Renamed ApplicationComponent 'CRM' to 'CRM system'");
    expect(renamed.entries).toEqual([
      expect.objectContaining({
        op: "update",
        before: expect.objectContaining({ name: "CRM" }),
        after: expect.objectContaining({ name: "CRM system" }),
      }),
    ]);
    const element = await getElement({ ctx, input: { id: "crm" } });
    expect(element.revision).toBe(renamed.group?.revision);

    const def = await oneGroup(ctx, () =>
      createPropertyDefinition({ ctx, input: { id: "owner", name: "Owner", type: "string" } }),
    );
    expect(def.touched).toEqual(["property_definition create owner"]);
    const withProperty = await oneGroup(ctx, () =>
      updateElement({ ctx, input: { id: "crm", properties: { Owner: "Sales" } } }),
    );
    expect(withProperty.touched).toEqual(["property_value create crm/0"]);
    expect(withProperty.entries[0]?.owner_id).toBe("crm");
    // A property change moves the element's revision too (it changed, as its users see it).
    expect((await getElement({ ctx, input: { id: "crm" } })).revision).toBe(withProperty.group?.revision);
    const changedProperty = await oneGroup(ctx, () =>
      updateElement({ ctx, input: { id: "crm", properties: { Owner: "Marketing" } } }),
    );
    expect(changedProperty.entries).toEqual([
      expect.objectContaining({
        kind: "property_value",
        op: "update",
        before: expect.objectContaining({ value: "Sales" }),
        after: expect.objectContaining({ value: "Marketing" }),
      }),
    ]);
    await oneGroup(ctx, () => updatePropertyDefinition({ ctx, input: { id: "owner", name: "Business owner" } }));

    const rel = await oneGroup(ctx, () =>
      createRelationship({ ctx, input: { id: "serves", type: "Serving", source: "billing", target: "crm" } }),
    );
    expect(rel.touched).toEqual(["relationship create serves"]);
    await oneGroup(ctx, () => updateRelationship({ ctx, input: { id: "serves", name: "bills" } }));

    const view = await oneGroup(ctx, () => createView({ ctx, input: { id: "landscape", name: "Landscape" } }));
    expect(view.touched).toEqual(["view create landscape"]);
    await oneGroup(ctx, () => updateView({ ctx, input: { id: "landscape", name: "Application landscape" } }));
    const node = await oneGroup(ctx, () =>
      createNode({ ctx, input: { view_id: "landscape", id: "n-crm", element_id: "crm", x: 10, y: 10 } }),
    );
    expect(node.entries).toEqual([
      expect.objectContaining({ kind: "node", object_id: "n-crm", owner_id: "landscape", op: "create" }),
    ]);
    await createNode({ ctx, input: { view_id: "landscape", id: "n-billing", element_id: "billing", x: 300, y: 10 } });
    const moved = await oneGroup(ctx, () =>
      updateNode({ ctx, input: { view_id: "landscape", id: "n-crm", x: 40, y: 60 } }),
    );
    expect(moved.group?.summary).toMatch(/^Moved node/);
    expect(moved.entries[0]).toMatchObject({
      before: expect.objectContaining({ x: 10, y: 10 }),
      after: expect.objectContaining({ x: 40, y: 60 }),
    });
    const conn = await oneGroup(ctx, () =>
      createConnection({
        ctx,
        input: {
          view_id: "landscape",
          id: "c-serves",
          source: "n-billing",
          target: "n-crm",
          relationship_id: "serves",
        },
      }),
    );
    expect(conn.entries[0]).toMatchObject({ kind: "connection", owner_id: "landscape", op: "create" });
    // Named by what its ends show, not by node ids.
    expect(conn.group?.summary).toBe("Connected 'Billing' to 'CRM system' on view 'Application landscape'");
    await oneGroup(ctx, () =>
      updateConnection({ ctx, input: { view_id: "landscape", id: "c-serves", bendpoints: [{ x: 1, y: 2 }] } }),
    );

    const deletedDef = await oneGroup(ctx, () => deletePropertyDefinition({ ctx, input: { id: "owner" } }));
    // The definition and, by foreign-key cascade, its values: one group.
    expect(deletedDef.touched).toEqual(["property_definition delete owner", "property_value delete crm/0"]);
    const deletedView = await oneGroup(ctx, () => deleteView({ ctx, input: { id: "landscape" } }));
    expect(deletedView.touched).toEqual([
      "connection delete c-serves",
      "node delete n-billing",
      "node delete n-crm",
      "view delete landscape",
    ]);
  });

  test("an update to the same values records nothing and gives its revision back", async () => {
    const ctx = await ownerContext(database);
    await createElement({ ctx, input: { id: "same", name: "Same", type: "Node" } });
    const before = await currentRevision(database, ctx.workspaceId);
    const answered = await updateElement({ ctx, input: { id: "same", name: "Same" } });
    expect(await currentRevision(database, ctx.workspaceId)).toBe(before);
    expect(answered.revision).toBe(before);
  });

  test("one UPDATE of several rows (row-level capture, migration 0029) records each changed row once, in order", async () => {
    const ctx = await ownerContext(database);
    await createPropertyDefinition({ ctx, input: { id: "p", name: "P", type: "string" } });
    for (const id of ["m1", "m2", "m3"])
      await createElement({ ctx, input: { id, name: id === "m3" ? "Kept" : id, type: "Node", properties: { P: id } } });
    const ws = ctx.workspaceId;
    const raw = (summary: string, statement: ReturnType<typeof sql>) =>
      oneGroup(ctx, () =>
        database.db.transaction((tx) =>
          recordChange(database, tx, ws, SYSTEM_ACTOR, summary, (t) => database.rows(statement, t)),
        ),
      );
    // m3 already has the name it is set to: no entry for it.
    const renamed = await raw(
      "Renamed two",
      sql`update elements set name = 'Kept' where workspace_id = ${ws} and id in ('m1', 'm2', 'm3')`,
    );
    expect(renamed.entries.map((e) => [e.seq, e.object_id, e.op, e.before?.name, e.after?.name])).toEqual([
      [1, "m1", "update", "m1", "Kept"],
      [2, "m2", "update", "m2", "Kept"],
    ]);
    // An id changed by UPDATE: the old object deleted, the new one created (as the statement-level pairing did).
    const moved = await raw(
      "Re-identified",
      sql`update elements set id = 'm9' where workspace_id = ${ws} and id = 'm1'`,
    );
    expect(moved.touched).toEqual(["element create m9", "element delete m1"]);
    // Property values (keyed by owner and position) keep the statement-level trigger: one UPDATE of two values.
    const values = await raw(
      "Values",
      sql`update property_values set value = 'v' where workspace_id = ${ws} and owner_id in ('m2', 'm3')`,
    );
    expect(values.touched).toEqual(["property_value update m2/0", "property_value update m3/0"]);
  });

  test("a refused write records nothing and leaves no gap", async () => {
    const ctx = await ownerContext(database);
    const before = await currentRevision(database, ctx.workspaceId);
    await expect(
      createRelationship({ ctx, input: { type: "Serving", source: "nothing", target: "nowhere" } }),
    ).rejects.toThrow();
    expect(await currentRevision(database, ctx.workspaceId)).toBe(before);
    const next = await oneGroup(ctx, () => createElement({ ctx, input: { name: "Next", type: "Node" } }));
    expect(next.group?.revision).toBe(before + 1);
  });
});

describe("the objects a group lists", () => {
  test("a group lists the objects and kinds its entries give, whichever capture wrote them", async () => {
    const ctx = await ownerContext(database);
    const ws = ctx.workspaceId ?? "";
    const xml = serializeExchange(generateModel({ elements: 40, relationships: 30, views: 2, seed: 3 }));
    await importModel({ ctx, input: { xml } });
    await createElement({ ctx, input: { id: "lonely", name: "Lonely", type: "Node" } });
    const write = (statements: ReturnType<typeof sql>[]) =>
      database.db.transaction((tx) =>
        recordChange(database, tx, ws, SYSTEM_ACTOR, "Raw", async (t) => {
          for (const statement of statements) await database.rows(statement, t);
        }),
      );
    const first = (table: string, n: number) =>
      sql`update ${sql.raw(table)} set name = name || '.' where workspace_id = ${ws} and id in
            (select id from ${sql.raw(table)} where workspace_id = ${ws} order by id limit ${n})`;
    await updateElement({ ctx, input: { id: "e-1", name: "Renamed" } });
    await write([sql`update elements set name = name || '!' where workspace_id = ${ws} and ord < 25`]); // beyond 20
    await write([
      sql`update view_nodes set x = x + 5 where workspace_id = ${ws} and id in
                      (select id from view_nodes where workspace_id = ${ws} order by id limit 3)`,
    ]);
    await write([
      sql`update connections set bendpoints = '[{"x":1,"y":2}]' where workspace_id = ${ws} and id in
                      (select id from connections where workspace_id = ${ws} order by id limit 2)`,
    ]);
    await write([
      sql`update elements set id = 'lonely-2', name = 'Moved' where workspace_id = ${ws} and id = 'lonely'`,
    ]);
    await write([
      sql`update elements set documentation = 'Mixed' where workspace_id = ${ws} and id = 'e-2'`,
      sql`insert into elements (workspace_id, id, ord, type, name) values (${ws}, 'fresh', 999, 'Node', 'Fresh')`,
      sql`update relationships set name = 'Mixed' where workspace_id = ${ws} and id = 'r-1'`,
    ]);
    await write([
      first("relationships", 19),
      sql`update elements set id = 'lonely-3' where workspace_id = ${ws} and id = 'lonely-2'`,
    ]);
    const rows = await database.rows<{ revision: string; listed: boolean; same_objects: boolean; same_kinds: boolean }>(
      sql`select g.revision, g.objects is not null as listed,
            g.objects is not distinct from ams_change_group_objects(g.workspace_id, g.revision) as same_objects,
            g.kinds = array(select distinct e.kind from change_entries e
                            where e.workspace_id = g.workspace_id and e.revision = g.revision order by e.kind) as same_kinds
          from change_groups g where g.workspace_id = ${ws} order by g.revision`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(9);
    expect(rows.filter((r) => !(r.listed && r.same_objects && r.same_kinds)).map((r) => r.revision)).toEqual([]);
  });
});

describe("a cascading delete is one group", () => {
  test("an element goes with its relationships, their relationships, nodes, connections and property values", async () => {
    const ctx = await ownerContext(database, { kind: "api_token", name: "CI sync" });
    await createPropertyDefinition({ ctx, input: { id: "cost", name: "Cost", type: "number" } });
    await createElement({ ctx, input: { id: "a", name: "A", type: "ApplicationComponent", properties: { Cost: 3 } } });
    await createElement({ ctx, input: { id: "b", name: "B", type: "ApplicationService" } });
    await createElement({ ctx, input: { id: "actor", name: "Clerk", type: "BusinessActor" } });
    await createRelationship({
      ctx,
      input: { id: "r1", type: "Serving", source: "b", target: "a", properties: { Cost: 1 } },
    });
    await createRelationship({ ctx, input: { id: "r2", type: "Association", source: "actor", target: "r1" } });
    await createView({ ctx, input: { id: "v", name: "V" } });
    await createNode({ ctx, input: { view_id: "v", id: "na", element_id: "a", x: 0, y: 0 } });
    await createNode({ ctx, input: { view_id: "v", id: "nb", element_id: "b", x: 200, y: 0 } });
    await createConnection({
      ctx,
      input: { view_id: "v", id: "c1", source: "nb", target: "na", relationship_id: "r1" },
    });

    const gone = await oneGroup(ctx, () => deleteElement({ ctx, input: { id: "a" } }));
    expect(gone.group).toMatchObject({
      summary: "Deleted ApplicationComponent 'A'",
      via_kind: "api_token",
      via_name: "CI sync",
    });
    expect(gone.touched).toEqual([
      "connection delete c1",
      "element delete a",
      "node delete na",
      "property_value delete a/0",
      "property_value delete r1/0",
      "relationship delete r1",
      "relationship delete r2",
    ]);
    // Full rows before: enough to put every one of them back.
    const r1 = gone.entries.find((e) => e.object_id === "r1");
    expect(r1?.before).toMatchObject({ id: "r1", type: "Serving", source_id: "b", target_id: "a", ord: 0 });
    expect(gone.entries.every((e) => e.after === null)).toBe(true);
  });
});

describe("an entry stores the row before; the state after is read from the log", () => {
  test("beyond a group's first 20 entries nothing after is stored: it is the next entry's before, else the current row", async () => {
    const ctx = await ownerContext(database);
    const ws = ctx.workspaceId ?? "";
    const elements = Array.from(
      { length: 30 },
      (_, i) => `<element identifier="i${i}" xsi:type="Node"><name xml:lang="en">I${i}</name></element>`,
    ).join("");
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="m">
  <name xml:lang="en">Thirty</name><elements>${elements}</elements>
</model>`;
    const imported = await oneGroup(ctx, () => importModel({ ctx, input: { xml } }));
    const creates = imported.entries.filter((e) => e.kind === "element");
    expect(creates).toHaveLength(30);
    // The first 20 entries (what the group's row lists) store the row after; the others the key only.
    expect(imported.entries.filter((e) => e.seq > 20).every((e) => e.stored_after === null && e.before === null)).toBe(
      true,
    );
    expect(imported.entries.filter((e) => e.seq <= 20 && e.op !== "delete").every((e) => e.stored_after !== null)).toBe(
      true,
    );
    // Read as every reader reads it: the created rows.
    expect(creates.map((e) => e.after?.name)).toEqual(Array.from({ length: 30 }, (_, i) => `I${i}`));

    // One statement renaming all thirty: the entries past 20 store the row before only.
    const raw = (summary: string, statement: ReturnType<typeof sql>) =>
      database.db.transaction((tx) =>
        recordChange(database, tx, ws, SYSTEM_ACTOR, summary, (t) => database.rows(statement, t)),
      );
    await raw("Renamed thirty", sql`update elements set name = name || ' renamed' where workspace_id = ${ws}`);
    const renamed = await entries(database, ws, await currentRevision(database, ws));
    const late = renamed.filter((e) => e.seq > 20);
    expect(late.length).toBe(10);
    expect(late.every((e) => e.stored_after === null && e.before?.name === `${e.object_id.toUpperCase()}`)).toBe(true);
    expect(late.every((e) => e.after?.name === `${e.object_id.toUpperCase()} renamed`)).toBe(true); // current rows
    // A later change: the earlier entry's state after is now that change's state before, not the current row.
    const last = late.at(-1)!;
    await updateElement({ ctx, input: { id: last.object_id, name: "Final" } });
    const again = (await entries(database, ws, last.revision)).find((e) => e.seq === last.seq);
    expect(again?.after?.name).toBe(`${last.object_id.toUpperCase()} renamed`);
    // A deletion stores the whole row before, and nothing after.
    const gone = await oneGroup(ctx, () => deleteElement({ ctx, input: { id: last.object_id } }));
    expect(gone.entries[0]).toMatchObject({ op: "delete", before: { name: "Final" }, after: null, stored_after: null });
  });
});

describe("no write escapes the log", () => {
  test("a raw write to workspace content without a change group is refused by the database", async () => {
    const ctx = await ownerContext(database);
    const refused = database.rows(
      sql`insert into elements (workspace_id, id, ord, type, name) values (${ctx.workspaceId}, 'raw', 0, 'Node', 'Raw')`,
    );
    await expect(refused).rejects.toThrow(/outside a change group/);
    await createElement({ ctx, input: { id: "kept", name: "Kept", type: "Node" } });
    await expect(
      database.rows(sql`update elements set name = 'Changed' where workspace_id = ${ctx.workspaceId}`),
    ).rejects.toThrow(/outside a change group/);
    await expect(database.rows(sql`delete from elements where workspace_id = ${ctx.workspaceId}`)).rejects.toThrow(
      /outside a change group/,
    );
    expect((await getElement({ ctx, input: { id: "kept" } })).name).toBe("Kept");
  });

  test("a refused group lets none of the statements sent with its opening write, and says why", async () => {
    const ctx = await ownerContext(database);
    const ws = ctx.workspaceId ?? "";
    await createElement({ ctx, input: { id: "kept", name: "Kept", type: "Node" } });
    const revision = await currentRevision(database, ws);
    await database.rows(sql`update workspaces set read_only_reason = 'Closed: read-only' where id = ${ws}`);
    // The verb's first statement goes out with the opening: a write of content is refused by the database.
    const content = withChange(ctx, { summary: "Late" }, (tx) =>
      database.rows(sql`update elements set name = 'Late' where workspace_id = ${ws} and id = 'kept'`, tx),
    );
    await expect(content).rejects.toMatchObject({ code: "CONFLICT", message: "Closed: read-only" });
    // A write the capture does not guard, by a verb that swallows errors and answers: rolled back all the same.
    const other = withChange(ctx, { summary: "Late" }, async (tx) => {
      await database.rows(sql`update workspaces set name = 'Renamed' where id = ${ws}`, tx).catch(() => []);
      return database.rows(sql`select 1`, tx).catch(() => []);
    });
    await expect(other).rejects.toMatchObject({ code: "CONFLICT", message: "Closed: read-only" });
    const [row] = await database.rows<{ name: string }>(sql`select name from workspaces where id = ${ws}`);
    expect(row?.name).not.toBe("Renamed");
    await database.rows(sql`update workspaces set read_only_reason = null where id = ${ws}`);
    expect((await getElement({ ctx, input: { id: "kept" } })).name).toBe("Kept");
    expect(await currentRevision(database, ws)).toBe(revision);
    // No such workspace: not found, whatever the verb met.
    const gone = { ...ctx, workspaceId: "00000000-0000-0000-0000-00000000dead" };
    await expect(
      withChange(gone, { summary: "Nowhere" }, (tx) =>
        database.rows(
          sql`insert into elements (workspace_id, id, ord, type, name) values (${gone.workspaceId}, 'x', 0, 'Node', 'X')`,
          tx,
        ),
      ),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("a group of one workspace cannot write another's content", async () => {
    const a = await ownerContext(database);
    const b = await ownerContext(database);
    await expect(
      database.db.transaction((tx) =>
        recordChange(database, tx, a.workspaceId, SYSTEM_ACTOR, "Cross", (t) =>
          database.rows(
            sql`insert into elements (workspace_id, id, ord, type, name) values (${b.workspaceId}, 'x', 0, 'Node', 'X')`,
            t,
          ),
        ),
      ),
    ).rejects.toThrow(/another workspace/);
  });

  test("deleting a workspace takes its content and its change log with it, unrecorded", async () => {
    const ctx = await ownerContext(database);
    await createElement({ ctx, input: { name: "Doomed", type: "Node" } });
    await database.rows(sql`delete from workspaces where id = ${ctx.workspaceId}`);
    const [left] = await database.rows<{ n: number }>(
      sql`select (select count(*) from change_entries where workspace_id = ${ctx.workspaceId})::int
            + (select count(*) from change_groups where workspace_id = ${ctx.workspaceId})::int
            + (select count(*) from elements where workspace_id = ${ctx.workspaceId})::int as n`,
    );
    expect(left?.n).toBe(0);
  });

  test("an import replacing the model is one group, via import, with the rows it removed, added and changed", async () => {
    const ctx = await ownerContext(database, { kind: "mcp", name: "Claude" });
    await createElement({ ctx, input: { id: "old", name: "Old", type: "Node" } });
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="m1">
  <name xml:lang="en">Imported</name>
  <elements>
    <element identifier="e1" xsi:type="BusinessActor"><name xml:lang="en">Customer</name></element>
  </elements>
</model>`;
    const imported = await oneGroup(ctx, () => importModel({ ctx, input: { xml } }));
    expect(imported.group).toMatchObject({ via_kind: "import", via_name: "Claude" });
    expect(imported.group?.summary).toBe("Imported 'Imported': 1 element added, 1 removed; model details changed");
    expect(imported.touched).toEqual(
      expect.arrayContaining(["element delete old", "element create e1", "model update " + ctx.workspaceId]),
    );
  });
});
