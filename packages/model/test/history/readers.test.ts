import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
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
  getView,
  importModel,
  listRelationships,
  listVersions,
  type RequestContext,
  renderViewImage,
  restoreObject,
  restoreVersion,
  revertChange,
  updateElement,
  updateNode,
} from "../../src/index.ts";
import { currentRevision, groups, ownerContext } from "./support.ts";

/** The change log's readers on real PostgreSQL: versions, diff, restore, revert, an object's restore. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_history_readers");
});
afterAll(async () => database?.drop());

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

/** The three changes of the story: a rename, a move, a property. */
async function editorMorning(ctx: RequestContext) {
  await updateElement({ ctx, input: { id: "crm", name: "CRM system" } });
  await updateNode({ ctx, input: { view_id: "landscape", id: "n-crm", x: 40, y: 80 } });
  await updateElement({ ctx, input: { id: "crm", properties: { Owner: "Sales" } } });
}

const problem = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message ?? "" }),
  );

describe("versions", () => {
  test("a version names the current revision; listed newest first; only an owner deletes one", async () => {
    const ctx = await seeded();
    const rev = await currentRevision(database, ctx.workspaceId ?? "");
    const lunch = await createVersion({ ctx, input: { name: "Before lunch", description: "morning work" } });
    expect(lunch).toMatchObject({ name: "Before lunch", description: "morning work", revision: rev, automatic: false });
    expect(lunch.created_by).toEqual({ id: ctx.userId, name: "Ana Lima" });
    await editorMorning(ctx);
    const later = await createVersion({ ctx, input: { name: "After lunch" } });
    expect(later.revision).toBe(rev + 3);
    expect((await listVersions({ ctx })).map((v) => v.name)).toEqual(["After lunch", "Before lunch"]);
    // Naming a revision records no change.
    expect(await currentRevision(database, ctx.workspaceId ?? "")).toBe(rev + 3);

    const editor = { ...ctx, role: "editor" as const };
    expect(await problem(deleteVersion({ ctx: editor, input: { versionId: later.id } }))).toMatchObject({
      code: "FORBIDDEN",
    });
    await deleteVersion({ ctx, input: { versionId: later.id } });
    expect((await listVersions({ ctx })).map((v) => v.name)).toEqual(["Before lunch"]);
    // Another workspace's version is unknown here.
    const other = await seeded();
    expect(await problem(deleteVersion({ ctx: other, input: { versionId: lunch.id } }))).toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("diff", () => {
  test("against a version: the rename, the property and the node's move, nothing else", async () => {
    const ctx = await seeded();
    const lunch = await createVersion({ ctx, input: { name: "Before lunch" } });
    await editorMorning(ctx);
    const diff = await diffRevisions({ ctx, input: { from: lunch.id, to: "current" } });
    expect(diff.from).toEqual({ revision: lunch.revision, version: { id: lunch.id, name: "Before lunch" } });
    expect(diff.elements.added).toEqual([]);
    expect(diff.elements.removed).toEqual([]);
    expect(diff.elements.changed).toEqual([
      {
        id: "crm",
        name: "CRM system",
        type: "ApplicationComponent",
        fields: [
          { field: "name", before: "CRM", after: "CRM system" },
          { field: "properties.Owner", before: null, after: "Sales" },
        ],
      },
    ]);
    expect(diff.relationships).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.view_layouts).toHaveLength(1);
    expect(diff.view_layouts[0]?.nodes.moved).toEqual([
      { id: "n-crm", label: "CRM system", before: { x: 10, y: 10 }, after: { x: 40, y: 80 } },
    ]);
    expect(diff.view_layouts[0]?.nodes.resized).toEqual([]);

    // Backwards: the same changes the other way round.
    const back = await diffRevisions({ ctx, input: { from: "current", to: lunch.id } });
    expect(back.elements.changed[0]?.fields[0]).toEqual({ field: "name", before: "CRM system", after: "CRM" });
  });

  test("between two past revisions, with later changes after both", async () => {
    const ctx = await seeded();
    const start = await currentRevision(database, ctx.workspaceId ?? "");
    await deleteElement({ ctx, input: { id: "billing" } });
    const afterDelete = await currentRevision(database, ctx.workspaceId ?? "");
    await createElement({ ctx, input: { id: "erp", name: "ERP", type: "ApplicationComponent" } });
    await updateElement({ ctx, input: { id: "crm", name: "CRM 2" } });
    const diff = await diffRevisions({ ctx, input: { from: String(start), to: String(afterDelete) } });
    expect(diff.elements.removed.map((e) => e.id)).toEqual(["billing"]);
    expect(diff.relationships.removed.map((e) => e.id)).toEqual(["serves"]);
    expect(diff.elements.added).toEqual([]);
    expect(diff.elements.changed).toEqual([]);
    const layout = diff.view_layouts[0];
    expect(layout?.nodes.removed.map((n) => n.id)).toEqual(["n-billing"]);
    expect(layout?.connections.removed.map((n) => n.id)).toEqual(["c-serves"]);
    // Brought back after both (the undelete creates them again after `to`): still removed between the two.
    await revertChange({ ctx, input: { revision: afterDelete } });
    const again = await diffRevisions({ ctx, input: { from: String(start), to: String(afterDelete) } });
    expect(again.elements.removed.map((e) => e.id)).toEqual(["billing"]);
    expect(again.relationships.removed.map((e) => e.id)).toEqual(["serves"]);
    expect(again.view_layouts[0]?.nodes.removed.map((n) => n.id)).toEqual(["n-billing"]);
    expect(again.view_layouts[0]?.connections.removed.map((n) => n.id)).toEqual(["c-serves"]);
  });

  test("bad points: beyond the current revision 422, another workspace's version 404, garbage 422", async () => {
    const ctx = await seeded();
    const other = await seeded();
    const theirs = await createVersion({ ctx: other, input: { name: "Theirs" } });
    const rev = await currentRevision(database, ctx.workspaceId ?? "");
    expect(await problem(diffRevisions({ ctx, input: { from: String(rev + 1) } }))).toMatchObject({
      code: "VALIDATION",
      message: expect.stringContaining(`beyond the workspace's current revision ${rev}`),
    });
    expect(await problem(diffRevisions({ ctx, input: { from: theirs.id } }))).toMatchObject({ code: "NOT_FOUND" });
    expect(await problem(diffRevisions({ ctx, input: { from: "yesterday" } }))).toMatchObject({
      code: "VALIDATION",
    });
  });
});

describe("restore and revert", () => {
  test("restoring a version is a new change group after an automatic version; history keeps both", async () => {
    const ctx = await seeded();
    const ws = ctx.workspaceId ?? "";
    const lunch = await createVersion({ ctx, input: { name: "Before lunch" } });
    await editorMorning(ctx);
    await deleteElement({ ctx, input: { id: "billing" } });
    const before = await currentRevision(database, ws);
    const result = await restoreVersion({ ctx, input: { version: lunch.id } });
    expect(result.revision).toBe(before + 1);
    expect(result.summary).toBe(`Restored version 'Before lunch' (revision ${lunch.revision})`);
    expect(await getElement({ ctx, input: { id: "crm" } })).toMatchObject({ name: "CRM", properties: {} });
    expect(await getElement({ ctx, input: { id: "billing" } })).toMatchObject({ name: "Billing" });
    expect((await listRelationships({ ctx, input: {} })).map((r) => r.id)).toEqual(["serves"]);
    const view = await getView({ ctx, input: { id: "landscape" } });
    expect(view.nodes.map((n) => [n.id, n.x, n.y])).toEqual([
      ["n-crm", 10, 10],
      ["n-billing", 300, 10],
    ]);
    expect(view.connections.map((c) => c.id)).toEqual(["c-serves"]);
    // Nothing differs from the version any more; the automatic version names the state before.
    const diff = await diffRevisions({ ctx, input: { from: lunch.id } });
    expect(
      [diff.elements, diff.relationships, diff.views].every(
        (k) => k.changed.length + k.added.length + k.removed.length === 0,
      ),
    ).toBe(true);
    expect(diff.view_layouts.every((v) => v.nodes.moved.length === 0 && v.nodes.added.length === 0)).toBe(true);
    const auto = (await listVersions({ ctx })).find((v) => v.automatic);
    expect(auto).toMatchObject({ name: "Before restore of 'Before lunch'", revision: before });
    const undo = await diffRevisions({ ctx, input: { from: auto?.id ?? "", to: "current" } });
    expect(undo.elements.added.map((e) => e.id)).toEqual(["billing"]);
    expect((await groups(database, ws)).at(-1)?.summary).toBe(result.summary);
  });

  test("undelete: reverting a cascading delete brings the element back with its relationships, nodes and connections", async () => {
    const ctx = await seeded();
    await updateElement({ ctx, input: { id: "billing", properties: { Owner: "Finance" } } });
    await deleteElement({ ctx, input: { id: "billing" } });
    const deleted = await currentRevision(database, ctx.workspaceId ?? "");
    const result = await revertChange({ ctx, input: { revision: deleted } });
    expect(result.revision).toBe(deleted + 1);
    expect(await getElement({ ctx, input: { id: "billing" } })).toMatchObject({
      name: "Billing",
      properties: { Owner: "Finance" },
    });
    expect((await listRelationships({ ctx, input: {} })).map((r) => [r.id, r.source, r.target])).toEqual([
      ["serves", "billing", "crm"],
    ]);
    const view = await getView({ ctx, input: { id: "landscape" } });
    expect(view.nodes.map((n) => n.id).sort()).toEqual(["n-billing", "n-crm"]);
    expect(view.connections.map((c) => c.id)).toEqual(["c-serves"]);
  });

  test("a revert whose objects changed later is 409 naming the later revisions and objects", async () => {
    const ctx = await seeded();
    await updateElement({ ctx, input: { id: "crm", name: "CRM 2" } });
    const first = await currentRevision(database, ctx.workspaceId ?? "");
    await updateElement({ ctx, input: { id: "crm", name: "CRM 3" } });
    const conflict = await problem(revertChange({ ctx, input: { revision: first } }));
    expect(conflict).toMatchObject({ code: "CONFLICT" });
    expect(conflict?.message).toContain(`revision ${first + 1}`);
    expect(conflict?.message).toContain("element 'crm'");
    expect(await getElement({ ctx, input: { id: "crm" } })).toMatchObject({ name: "CRM 3" });
    // The later one reverts cleanly, then the first.
    await revertChange({ ctx, input: { revision: first + 1 } });
    expect(await getElement({ ctx, input: { id: "crm" } })).toMatchObject({ name: "CRM 2" });
    expect(await problem(revertChange({ ctx, input: { revision: first + 99 } }))).toMatchObject({
      code: "VALIDATION",
    });
    const other = await seeded();
    expect(await problem(revertChange({ ctx: other, input: { revision: 0 } }))).toMatchObject({ code: "NOT_FOUND" });
  });

  test("an element's restore brings back its state at a revision, deleted or not", async () => {
    const ctx = await seeded();
    const named = await currentRevision(database, ctx.workspaceId ?? "");
    await updateElement({ ctx, input: { id: "crm", name: "Renamed", properties: { Owner: "Sales" } } });
    await updateElement({ ctx, input: { id: "billing", name: "Billing 2" } });
    const restored = await restoreObject({ ctx, input: { kind: "element", id: "crm", revision: named } });
    // The history names it as people know it (its name at that revision), not by its id.
    expect(restored.summary).toBe(`Restored element 'CRM' to revision ${named}`);
    expect(await getElement({ ctx, input: { id: "crm" } })).toMatchObject({ name: "CRM", properties: {} });
    expect(await getElement({ ctx, input: { id: "billing" } })).toMatchObject({ name: "Billing 2" });
    await deleteElement({ ctx, input: { id: "crm" } });
    await restoreObject({ ctx, input: { kind: "element", id: "crm", revision: named } });
    expect(await getElement({ ctx, input: { id: "crm" } })).toMatchObject({ name: "CRM" });
    expect(await problem(restoreObject({ ctx, input: { kind: "element", id: "crm", revision: 1 } }))).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  test("a viewer cannot restore or revert", async () => {
    const ctx = await seeded();
    const lunch = await createVersion({ ctx, input: { name: "Before lunch" } });
    const viewer = { ...ctx, role: "viewer" as const };
    expect(await problem(restoreVersion({ ctx: viewer, input: { version: lunch.id } }))).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await problem(revertChange({ ctx: viewer, input: { revision: 2 } }))).toMatchObject({ code: "FORBIDDEN" });
    expect((await listVersions({ ctx: viewer })).length).toBe(1);
  });
});

describe("past states", () => {
  test("export and view image of a version; an import first makes 'Before import of <file>'", async () => {
    const ctx = await seeded();
    const lunch = await createVersion({ ctx, input: { name: "Before lunch" } });
    await editorMorning(ctx);
    await deleteElement({ ctx, input: { id: "billing" } });
    const past = await exportModel({ ctx, input: { version: lunch.id } });
    expect(past.fileName).toBe("History (Before lunch).xml");
    expect(past.xml).toContain(">CRM<");
    expect(past.xml).toContain(">Billing<");
    expect(past.xml).not.toContain("CRM system");
    const now = await exportModel({ ctx });
    expect(now.xml).toContain("CRM system");
    expect(now.xml).not.toContain(">Billing<");
    const picture = await renderViewImage({ ctx, input: { id: "landscape", format: "svg", version: lunch.id } });
    expect(picture.data).toContain("Billing");
    expect(await problem(exportModel({ ctx: await seeded(), input: { version: lunch.id } }))).toMatchObject({
      code: "NOT_FOUND",
    });

    await importModel({ ctx, input: { xml: past.xml, fileName: "lunch.xml" } });
    const auto = (await listVersions({ ctx })).find((v) => v.automatic);
    expect(auto?.name).toBe("Before import of lunch.xml");
    const beforeImport = await exportModel({ ctx, input: { version: auto?.id ?? "" } });
    expect(beforeImport.xml).toContain("CRM system");
    expect(beforeImport.xml).not.toContain(">Billing<");
    expect((await exportModel({ ctx })).xml).toContain(">Billing<");
  });
});
