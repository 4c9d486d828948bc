import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createConnection,
  createElement,
  createNode,
  createRelationship,
  createView,
  deleteElement,
  deleteWorkspace,
  discardDraft,
  draftChanges,
  draftConflicts,
  forkDraft,
  getDraft,
  getElement,
  listDrafts,
  listWorkspaces,
  mergeDraft,
  type RequestContext,
  reviewDraft,
  submitDraft,
  updateElement,
  updateNode,
} from "../../src/index.ts";
import { groups, ownerContext } from "../history/support.ts";

/** Drafts on real PostgreSQL: fork, changes, the three-way merge, conflicts and resolutions, review, closing. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_drafts_merge");
});
afterAll(async () => database?.drop());

/** A base with CRM and Billing (Billing serves CRM) on view Landscape, and a draft "Target 2027" forked from it. */
async function forked() {
  const base = await ownerContext(database);
  await createElement({ ctx: base, input: { id: "crm", name: "CRM", type: "ApplicationComponent" } });
  await createElement({ ctx: base, input: { id: "billing", name: "Billing", type: "ApplicationComponent" } });
  await createRelationship({ ctx: base, input: { id: "serves", type: "Serving", source: "billing", target: "crm" } });
  await createView({ ctx: base, input: { id: "landscape", name: "Landscape" } });
  await createNode({ ctx: base, input: { view_id: "landscape", id: "n-crm", element_id: "crm", x: 10, y: 10 } });
  await createNode({ ctx: base, input: { view_id: "landscape", id: "n-bil", element_id: "billing", x: 300, y: 10 } });
  await createConnection({
    ctx: base,
    input: { view_id: "landscape", id: "c-serves", source: "n-bil", target: "n-crm", relationship_id: "serves" },
  });
  const draft = await forkDraft({ ctx: base, input: { name: "Target 2027", description: "Where we go" } });
  const inDraft: RequestContext = { ...base, workspaceId: draft.id };
  return { base, draft, inDraft };
}

const problem = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string; errors?: { path: string; message: string }[] }) => ({
      code: e.code,
      message: e.message ?? "",
      paths: (e.errors ?? []).map((x) => x.path),
    }),
  );

describe("fork", () => {
  test("a draft is a workspace with the base's content and ids, listed under its base only", async () => {
    const { base, draft, inDraft } = await forked();
    expect(draft).toMatchObject({
      name: "Target 2027",
      description: "Where we go",
      base_workspace_id: base.workspaceId,
      base_name: "History",
      state: "open",
      revision: 0,
      changes: 0,
      author: { id: base.userId, name: "Ana Lima", via: { kind: "browser", name: null } },
    });
    expect(draft.base_revision).toBeGreaterThan(0);
    expect((await getElement({ ctx: inDraft, input: { id: "crm" } })).name).toBe("CRM");
    expect((await listWorkspaces({ ctx: base })).map((w) => w.id)).not.toContain(draft.id);
    expect((await listDrafts({ ctx: base })).map((d) => d.id)).toEqual([draft.id]);
    // The copy is the draft's starting point, not a change of it.
    expect(await groups(database, draft.id)).toEqual([]);
    expect(await problem(forkDraft({ ctx: inDraft, input: { name: "Of a draft" } }))).toMatchObject({
      code: "CONFLICT",
    });
  });
});

describe("changes and merge", () => {
  test("non-overlapping changes merge, also different fields of one element; the draft is then read-only", async () => {
    const { base, draft, inDraft } = await forked();
    await updateElement({ ctx: inDraft, input: { id: "crm", name: "CRM 2027" } });
    await createElement({ ctx: inDraft, input: { id: "lake", name: "Data lake", type: "DataObject" } });
    await updateNode({ ctx: inDraft, input: { view_id: "landscape", id: "n-crm", x: 40, y: 80 } });
    await updateElement({ ctx: base, input: { id: "crm", documentation: "Customer records" } });

    const changes = await draftChanges({ ctx: inDraft });
    expect(changes.from.revision).toBe(draft.base_revision);
    expect(changes.elements.added).toEqual([{ id: "lake", name: "Data lake", type: "DataObject" }]);
    expect(changes.elements.changed).toEqual([
      {
        id: "crm",
        name: "CRM 2027",
        type: "ApplicationComponent",
        fields: [{ field: "name", before: "CRM", after: "CRM 2027" }],
      },
    ]);
    expect(changes.view_layouts[0]?.nodes.moved.map((n) => n.id)).toEqual(["n-crm"]);
    expect((await draftConflicts({ ctx: inDraft })).conflicts).toEqual([]);

    await reviewDraft({
      ctx: { ...inDraft, userId: "rita", actorName: "Rita" },
      input: { decision: "approve", comment: "" },
    });
    const merged = await mergeDraft({ ctx: inDraft, input: {} });
    expect(merged.summary).toBe("Merged draft 'Target 2027' (reviewed by Rita)");
    expect(merged.draft).toMatchObject({ state: "merged", merged_revision: merged.revision });
    const crm = await getElement({ ctx: base, input: { id: "crm" } });
    expect(crm).toMatchObject({ name: "CRM 2027", documentation: "Customer records" });
    expect((await getElement({ ctx: base, input: { id: "lake" } })).name).toBe("Data lake");
    const last = (await groups(database, base.workspaceId ?? "")).at(-1);
    expect(last).toMatchObject({ revision: merged.revision, summary: merged.summary });

    expect(await problem(updateElement({ ctx: inDraft, input: { id: "crm", name: "Late" } }))).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("was merged into 'History': the draft is read-only"),
    });
    expect(await problem(mergeDraft({ ctx: inDraft, input: {} }))).toMatchObject({ code: "CONFLICT" });
  });

  test("the same field on both sides is a conflict until resolved; unknown resolutions are named", async () => {
    const { base, inDraft } = await forked();
    await updateElement({ ctx: inDraft, input: { id: "crm", name: "CRM (draft)" } });
    await updateElement({ ctx: inDraft, input: { id: "billing", name: "Billing (draft)" } });
    await updateElement({ ctx: base, input: { id: "crm", name: "CRM (base)" } });
    await updateElement({ ctx: base, input: { id: "billing", name: "Billing (base)" } });

    const { conflicts } = await draftConflicts({ ctx: inDraft });
    expect(conflicts.map((c) => [c.key, c.field, c.base, c.draft, c.current, c.reason])).toEqual([
      ["element:billing:name", "name", "Billing", "Billing (draft)", "Billing (base)", "both_changed"],
      ["element:crm:name", "name", "CRM", "CRM (draft)", "CRM (base)", "both_changed"],
    ]);
    expect(await problem(mergeDraft({ ctx: inDraft, input: {} }))).toMatchObject({
      code: "CONFLICT",
      paths: ["element:billing:name", "element:crm:name"],
    });
    expect(
      await problem(mergeDraft({ ctx: inDraft, input: { resolutions: { "element:nope:name": "draft" } } })),
    ).toMatchObject({ code: "VALIDATION", paths: ["resolutions.element:nope:name"] });

    await mergeDraft({
      ctx: inDraft,
      input: { resolutions: { "element:crm:name": "draft", "element:billing:name": { value: "Billing 2027" } } },
    });
    expect((await getElement({ ctx: base, input: { id: "crm" } })).name).toBe("CRM (draft)");
    expect((await getElement({ ctx: base, input: { id: "billing" } })).name).toBe("Billing 2027");
  });

  test("resolution values are checked as a write's: not an ArchiMate type, the wrong kind, or against the table → 422", async () => {
    const { base, inDraft } = await forked();
    await updateElement({ ctx: inDraft, input: { id: "crm", name: "CRM (draft)", type: "ApplicationInterface" } });
    await updateElement({ ctx: base, input: { id: "crm", name: "CRM (base)", type: "Node" } });
    expect((await draftConflicts({ ctx: inDraft })).conflicts.map((c) => c.key)).toEqual([
      "element:crm:name",
      "element:crm:type",
    ]);
    const resolve = (name: unknown, type: unknown) =>
      problem(
        mergeDraft({
          ctx: inDraft,
          input: { resolutions: { "element:crm:name": { value: name }, "element:crm:type": { value: type } } },
        }),
      );
    expect(await resolve(42, "Nonsense")).toMatchObject({
      message: expect.stringContaining("42 is a number; name holds a string"),
      code: "VALIDATION",
      paths: ["resolutions.element:crm:name", "resolutions.element:crm:type"],
    });
    // A data object serves nothing: Billing's Serving relationship to it would break the table.
    expect(await resolve("CRM data", "DataObject")).toMatchObject({
      code: "VALIDATION",
      paths: ["relationship/serves"],
    });
    expect((await getDraft({ ctx: inDraft })).state).toBe("open");
    await mergeDraft({
      ctx: inDraft,
      input: { resolutions: { "element:crm:name": { value: "CRM 2027" }, "element:crm:type": "draft" } },
    });
    expect(await getElement({ ctx: base, input: { id: "crm" } })).toMatchObject({
      name: "CRM 2027",
      type: "ApplicationInterface",
    });
  });

  test("a relationship to an element the base deleted is a conflict; 'current' leaves it out", async () => {
    const { base, inDraft } = await forked();
    await createElement({ ctx: inDraft, input: { id: "crm2", name: "CRM 2", type: "ApplicationComponent" } });
    await createRelationship({ ctx: inDraft, input: { id: "flows", type: "Flow", source: "billing", target: "crm2" } });
    await createRelationship({
      ctx: inDraft,
      input: { id: "uses", type: "Serving", source: "crm", target: "billing" },
    });
    await deleteElement({ ctx: base, input: { id: "crm" } });

    const { conflicts } = await draftConflicts({ ctx: inDraft });
    expect(conflicts.map((c) => [c.key, c.reason])).toEqual([["relationship:uses", "endpoint_deleted_in_current"]]);
    await mergeDraft({ ctx: inDraft, input: { resolutions: { "relationship:uses": "current" } } });
    expect(await problem(getElement({ ctx: base, input: { id: "crm" } }))).toMatchObject({ code: "NOT_FOUND" });
    expect((await getElement({ ctx: base, input: { id: "crm2" } })).name).toBe("CRM 2");
  });

  test("a merge whose result breaks the relationship table is refused, naming the relationship", async () => {
    const { base } = await forked();
    await createElement({ ctx: base, input: { id: "job", name: "Nightly job", type: "ApplicationComponent" } });
    const draft = await forkDraft({ ctx: base, input: { name: "Jobs" } });
    const inDraft = { ...base, workspaceId: draft.id };
    await createRelationship({ ctx: inDraft, input: { id: "feeds", type: "Serving", source: "job", target: "crm" } });
    // Meanwhile the base makes the job a data object, which serves nothing.
    await updateElement({ ctx: base, input: { id: "job", type: "DataObject" } });
    expect((await draftConflicts({ ctx: inDraft })).conflicts).toEqual([]);
    expect(await problem(mergeDraft({ ctx: inDraft, input: {} }))).toMatchObject({
      code: "VALIDATION",
      paths: ["relationship/feeds"],
    });
    expect((await getDraft({ ctx: inDraft })).state).toBe("open");
  });
});

describe("review and closing", () => {
  test("required approvals count owners/editors other than the author; discard is the author's or an owner's", async () => {
    const { base, inDraft } = await forked();
    await database.rows(sql`update organizations set draft_approvals_required = 1 where id = ${base.organizationId}`);
    await submitDraft({ ctx: inDraft });
    await reviewDraft({ ctx: inDraft, input: { decision: "approve", comment: "mine" } });
    expect((await getDraft({ ctx: inDraft })).approvals).toBe(0);
    expect(await problem(mergeDraft({ ctx: inDraft, input: {} }))).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("needs 1 approval"),
    });
    const editor = { ...inDraft, userId: "eddie", actorName: "Eddie", role: "editor" as const };
    expect(await problem(discardDraft({ ctx: editor }))).toMatchObject({ code: "FORBIDDEN" });
    const d = await discardDraft({ ctx: inDraft });
    expect(d).toMatchObject({ state: "discarded", closed_reason: "Draft 'Target 2027' was discarded" });
  });

  test("deleting the base closes its drafts, kept read-only", async () => {
    const { base, draft, inDraft } = await forked();
    expect(await deleteWorkspace({ ctx: base, input: { id: base.workspaceId ?? "" } })).toEqual({ closed_drafts: 1 });
    const closed = await getDraft({ ctx: inDraft });
    expect(closed).toMatchObject({ id: draft.id, state: "closed", base_workspace_id: null, base_name: "History" });
    expect(await problem(updateElement({ ctx: inDraft, input: { id: "crm", name: "x" } }))).toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("base workspace 'History' was deleted"),
    });
    expect((await getElement({ ctx: inDraft, input: { id: "crm" } })).name).toBe("CRM");
  });
});
