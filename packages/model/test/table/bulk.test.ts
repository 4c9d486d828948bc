import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { AppError } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  bulkEdit,
  createElement,
  createPropertyDefinition,
  createRelationship,
  getElement,
  listElements,
  listRelationships,
  type RequestContext,
  readTable,
  revertChange,
  updateElement,
} from "../../src/index.ts";
import { currentRevision, groups, ownerContext, touched } from "../history/support.ts";

/** The table view's bulk edit on real PostgreSQL: one change group per edit, all or nothing. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_table");
});
afterAll(async () => database?.drop());

async function model(ctx: RequestContext) {
  await createPropertyDefinition({ ctx, input: { name: "Owner" } });
  await createPropertyDefinition({ ctx, input: { name: "Cost", type: "number" } });
  for (const [id, name, type] of [
    ["a1", "Billing", "ApplicationComponent"],
    ["a2", "CRM", "ApplicationComponent"],
    ["a3", "Portal", "ApplicationComponent"],
    ["actor", "Customer", "BusinessActor"],
  ] as const) {
    await createElement({ ctx, input: { id, name, type, properties: id === "a1" ? { Owner: "Ana" } : undefined } });
  }
  // Assignment from a BusinessActor to an ApplicationComponent is not allowed; to a BusinessRole it is.
  await createElement({ ctx, input: { id: "role", name: "Buyer", type: "BusinessRole" } });
  await createRelationship({ ctx, input: { id: "assigns", type: "Assignment", source: "actor", target: "role" } });
  await createRelationship({ ctx, input: { id: "serves", type: "Serving", source: "a2", target: "a3" } });
}

/** Runs a bulk edit and checks it recorded exactly one change group; answers the group's touched objects. */
async function oneGroup(ctx: RequestContext, input: Parameters<typeof bulkEdit>[0]["input"]) {
  const ws = ctx.workspaceId ?? "";
  const before = await currentRevision(database, ws);
  const result = await bulkEdit({ ctx, input });
  expect(await currentRevision(database, ws), "exactly one change group").toBe(before + 1);
  expect(result.revision).toBe(before + 1);
  return { result, touched: await touched(database, ws, before + 1), group: (await groups(database, ws)).at(-1) };
}

/** Runs a bulk edit that must be refused, and checks nothing was written (no group, no revision). */
async function refused(ctx: RequestContext, input: Parameters<typeof bulkEdit>[0]["input"]): Promise<AppError> {
  const ws = ctx.workspaceId ?? "";
  const before = await currentRevision(database, ws);
  const groupsBefore = (await groups(database, ws)).length;
  const err = await bulkEdit({ ctx, input }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect(await currentRevision(database, ws)).toBe(before);
  expect((await groups(database, ws)).length).toBe(groupsBefore);
  return err as AppError;
}

describe("bulkEdit", () => {
  test("a property set on many rows is one change group, and one revert takes it back", async () => {
    const ctx = await ownerContext(database);
    await model(ctx);
    const {
      result,
      touched: objects,
      group,
    } = await oneGroup(ctx, {
      ids: ["a1", "a2", "a3"],
      set: { properties: { Owner: "Team Blue", Cost: "12.5" } },
    });
    expect(result.rows).toBe(3);
    expect(group?.summary).toBe("Set Owner, Cost on 3 elements");
    expect(objects.filter((o) => o.startsWith("property_value"))).toHaveLength(6);
    const all = await listElements({ ctx, input: {} });
    for (const id of ["a1", "a2", "a3"]) {
      const e = all.find((x) => x.id === id);
      expect(e?.properties).toEqual({ Owner: "Team Blue", Cost: 12.5 });
      expect(e?.revision).toBe(result.revision);
    }
    await revertChange({ ctx, input: { revision: result.revision } });
    const back = await listElements({ ctx, input: {} });
    expect(back.find((x) => x.id === "a1")?.properties).toEqual({ Owner: "Ana" });
    expect(back.find((x) => x.id === "a2")?.properties).toEqual({});
  });

  test("a type change is refused naming the relationship it would make invalid; nothing changes", async () => {
    const ctx = await ownerContext(database);
    await model(ctx);
    const err = await refused(ctx, { ids: ["a1", "actor"], set: { type: "ApplicationComponent" } });
    expect(err.code).toBe("VALIDATION");
    expect(err.message).toContain("relationship 'assigns'");
    expect(err.message).toContain("Assignment from ApplicationComponent 'Customer' to BusinessRole 'Buyer'");
    expect((await getElement({ ctx, input: { id: "actor" } })).type).toBe("BusinessActor");
    // Where every relationship stays valid the change is made, both ends retyped together included.
    const { result } = await oneGroup(ctx, { ids: ["a2", "a3"], set: { type: "Application Collaboration" } });
    expect(result.rows).toBe(2);
    expect((await getElement({ ctx, input: { id: "a3" } })).type).toBe("ApplicationCollaboration");
  });

  test("a pasted block writes a value per row as one group; one bad cell refuses the whole block", async () => {
    const ctx = await ownerContext(database);
    await model(ctx);
    const err = await refused(ctx, {
      rows: [
        { id: "a1", name: "Billing 2", properties: { Cost: "7" } },
        { id: "a2", name: "CRM 2", properties: { Cost: "seven" } },
      ],
    });
    expect(err.message).toContain("rows[1].properties.Cost: must be a number");
    expect((await getElement({ ctx, input: { id: "a1" } })).name).toBe("Billing");
    const { result, group } = await oneGroup(ctx, {
      rows: [
        { id: "a1", name: "Billing 2", documentation: "Bills", properties: { Cost: "7", Owner: null } },
        { id: "a2", name: "CRM 2", properties: { Cost: 8 } },
        { id: "a3", name: "Portal" }, // unchanged: not counted
      ],
    });
    expect(result.rows).toBe(2);
    expect(group?.summary).toBe("Pasted values into 3 elements");
    const a1 = await getElement({ ctx, input: { id: "a1" } });
    expect(a1).toMatchObject({ name: "Billing 2", documentation: "Bills", properties: { Cost: 7 } });
  });

  test("deleting many rows takes their relationships along in one group; a missing id changes nothing", async () => {
    const ctx = await ownerContext(database);
    await model(ctx);
    const err = await refused(ctx, { ids: ["a2", "nope"], delete: true });
    expect(err.code).toBe("NOT_FOUND");
    expect(err.message).toContain("'nope'");
    const { result, touched: objects } = await oneGroup(ctx, { ids: ["a2", "a3"], delete: true });
    expect(result.rows).toBe(2);
    expect(objects).toContain("relationship delete serves");
    expect((await listRelationships({ ctx, input: {} })).map((r) => r.id)).toEqual(["assigns"]);
    await revertChange({ ctx, input: { revision: result.revision } });
    expect((await listRelationships({ ctx, input: {} })).map((r) => r.id).sort()).toEqual(["assigns", "serves"]);
  });

  test("expected revisions: a row changed meanwhile refuses the edit with the row as it is now", async () => {
    const ctx = await ownerContext(database);
    await model(ctx);
    const seen = await getElement({ ctx, input: { id: "a2" } });
    await updateElement({ ctx, input: { id: "a2", name: "CRM (theirs)" } });
    const err = await refused(ctx, {
      ids: ["a1", "a2"],
      set: { documentation: "Mine" },
      expected_revisions: { a2: seen.revision },
    });
    expect(err.code).toBe("PRECONDITION_FAILED");
    expect(err.current).toMatchObject({ id: "a2", name: "CRM (theirs)" });
  });

  test("relationships: a type that the ends do not allow is refused naming the relationship", async () => {
    const ctx = await ownerContext(database);
    await model(ctx);
    const err = await refused(ctx, { kind: "relationship", ids: ["serves"], set: { type: "Assignment" } });
    expect(err.message).toContain("relationship 'serves'");
    await oneGroup(ctx, { kind: "relationship", ids: ["serves"], set: { type: "Flow" } });
  });
});

describe("readTable", () => {
  test("answers the rows column by column with sparse property columns", async () => {
    const ctx = await ownerContext(database);
    await model(ctx);
    const table = await readTable({ ctx, input: { kind: "elements" } });
    expect(table.count).toBe(5);
    expect(table.id).toEqual(["a1", "a2", "a3", "actor", "role"]);
    expect(table.type.map((t) => table.types[t])).toContain("BusinessActor");
    const owner = table.properties.find((p) => p.name === "Owner");
    expect(owner).toMatchObject({ rows: [0], values: ["Ana"] });
    const rels = await readTable({ ctx, input: { kind: "relationships" } });
    expect(rels).toMatchObject({
      id: ["assigns", "serves"],
      source_name: ["Customer", "CRM"],
      target_name: ["Buyer", "Portal"],
    });
  });
});
