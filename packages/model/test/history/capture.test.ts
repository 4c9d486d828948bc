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
  getElement,
  importModel,
  type RequestContext,
  recordChange,
  SYSTEM_ACTOR,
  updateConnection,
  updateElement,
  updateNode,
  updatePropertyDefinition,
  updateRelationship,
  updateView,
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

  test("an import replacing the model is one group, via import, with the old rows deleted and the new created", async () => {
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
    expect(imported.group?.summary).toBe("Imported model 'Imported': 1 elements, 0 relationships, 0 views");
    expect(imported.touched).toEqual(
      expect.arrayContaining(["element delete old", "element create e1", "model update " + ctx.workspaceId]),
    );
  });
});
