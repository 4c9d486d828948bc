import { readFileSync } from "node:fs";
import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  diffRevisions,
  exportModel,
  getElement,
  getElementHistory,
  getView,
  getViewHistory,
  getWorkspaceHistory,
  importModel,
  listVersions,
  type RequestContext,
  restoreObject,
  revertChange,
} from "../../src/index.ts";
import { currentRevision, entries, groups, ownerContext, touched } from "./support.ts";

/** An import over a workspace's model writes only what differs: the log records what the file changed. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_import_diff");
});
afterAll(async () => database?.drop());

const FEATURES = readFileSync(new URL("../exchange/fixtures/features.xml", import.meta.url), "utf8");

/** The fixture with each [from, to] replaced (each must occur). */
function edited(xml: string, ...edits: [string, string][]): string {
  let out = xml;
  for (const [from, to] of edits) {
    expect(out, `the fixture has ${from}`).toContain(from);
    out = out.replace(from, to);
  }
  return out;
}

/** A workspace holding the fixture, imported once. */
async function imported(): Promise<RequestContext & { workspaceId: string }> {
  const ctx = await ownerContext(database);
  await importModel({ ctx, input: { xml: FEATURES, fileName: "features.xml" } });
  return ctx;
}

const entryCount = async (ws: string) =>
  Number(
    (
      await database.rows<{ n: number }>(sql`select count(*)::int as n from change_entries where workspace_id = ${ws}`)
    )[0]?.n,
  );

describe("an import over a model", () => {
  test("re-importing the same file, or the model's own export, records nothing", async () => {
    const ctx = await imported();
    const ws = ctx.workspaceId;
    const revision = await currentRevision(database, ws);
    const before = (await exportModel({ ctx })).xml;
    const logged = { groups: (await groups(database, ws)).length, entries: await entryCount(ws) };
    const versions = (await listVersions({ ctx })).length;

    const again = await importModel({ ctx, input: { xml: FEATURES, fileName: "features.xml" } });
    expect(again).toMatchObject({ added: 0, changed: 0, removed: 0, revision });
    expect(again.summary).toBe("Imported features.xml: no changes");
    const roundTrip = await importModel({ ctx, input: { xml: before, fileName: "export.xml" } });
    expect(roundTrip).toMatchObject({ added: 0, changed: 0, removed: 0, revision });

    expect(await currentRevision(database, ws)).toBe(revision);
    expect({ groups: (await groups(database, ws)).length, entries: await entryCount(ws) }).toEqual(logged);
    // No state was replaced, so there is none to name: no "Before import of" version either.
    expect((await listVersions({ ctx })).length).toBe(versions);
    expect((await exportModel({ ctx })).xml).toBe(before);
  });

  test("one element renamed, one added and one removed: exactly those three entries, then diff and revert", async () => {
    const ctx = await imported();
    const ws = ctx.workspaceId;
    const v2 = edited(
      FEATURES,
      ["<name>Retention</name>", "<name>Loyalty</name>"],
      // Added in the middle of the file: the elements after it keep their places.
      [
        '<element identifier="id-app"',
        '<element identifier="id-new" xsi:type="BusinessObject"><name>Contract</name></element>\n    <element identifier="id-app"',
      ],
      ['<element identifier="id-or" xsi:type="OrJunction">\n      <name>Either</name>\n    </element>', ""],
    );
    const result = await importModel({ ctx, input: { xml: v2, fileName: "v2.xml" } });
    expect(result).toMatchObject({ added: 1, changed: 1, removed: 1 });
    expect(result.summary).toBe("Imported v2.xml: 1 element added, 1 changed, 1 removed");
    const revision = result.revision;
    expect(await touched(database, ws, revision)).toEqual([
      "element create id-new",
      "element delete id-or",
      "element update id-goal",
    ]);
    const rename = (await entries(database, ws, revision)).find((e) => e.object_id === "id-goal");
    expect(rename?.before).toEqual({ ...rename?.after, name: "Retention" });
    expect((await groups(database, ws)).at(-1)).toMatchObject({
      revision,
      via_kind: "import",
      summary: "Imported v2.xml: 1 element added, 1 changed, 1 removed",
    });

    const page = await getWorkspaceHistory({ ctx, input: { id: ws, limit: 1 } });
    expect(page.items[0]?.objects.map((o) => `${o.op} ${o.name}`).sort()).toEqual([
      "create Contract",
      "delete Either",
      "update Loyalty",
    ]);

    const auto = (await listVersions({ ctx })).find((v) => v.name === "Before import of v2.xml");
    expect(auto?.revision).toBe(revision - 1);
    const diff = await diffRevisions({ ctx, input: { from: auto?.id ?? "", to: "current" } });
    expect(diff.elements.added.map((e) => e.id)).toEqual(["id-new"]);
    expect(diff.elements.removed.map((e) => e.id)).toEqual(["id-or"]);
    expect(diff.elements.changed).toEqual([
      expect.objectContaining({ id: "id-goal", fields: [{ field: "name", before: "Retention", after: "Loyalty" }] }),
    ]);
    expect(diff.relationships).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.view_layouts).toEqual([]);

    // Revert brings the previous names back; the workspace is then the first file again.
    await revertChange({ ctx, input: { revision } });
    expect((await getElement({ ctx, input: { id: "id-goal" } })).name).toBe("Retention");
    expect((await getElement({ ctx, input: { id: "id-or" } })).name).toBe("Either");
    await expect(getElement({ ctx, input: { id: "id-new" } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const reverted = await currentRevision(database, ws);
    expect((await importModel({ ctx, input: { xml: FEATURES } })).revision).toBe(reverted);
  });

  test("relationships, nodes, connections and folder entries: only what the file changed", async () => {
    const ctx = await imported();
    const ws = ctx.workspaceId;
    const v2 = edited(
      FEATURES,
      [
        '<element identifier="id-and" xsi:type="AndJunction"/>',
        '<element identifier="id-new" xsi:type="BusinessRole"><name>Broker</name></element>',
      ],
      ['    <relationship identifier="id-r-j1" source="id-role" target="id-and" xsi:type="Serving"/>\n', ""],
      // A kept relationship moved onto the new element, whose old source goes.
      ['<relationship identifier="id-r-j2" source="id-and"', '<relationship identifier="id-r-j2" source="id-new"'],
      // Filed in the first folder: every folder entry after it is numbered one further in the file.
      ['<item identifierRef="id-role"/>', '<item identifierRef="id-role"/>\n        <item identifierRef="id-new"/>'],
      ['x="440" y="80"', 'x="460" y="80"'],
      [
        '<connection identifier="id-c-line" xsi:type="Line" source="id-n-label" target="id-c-assoc">\n          <bendpoint x="700" y="300"/>\n        </connection>\n',
        "",
      ],
    );
    const result = await importModel({ ctx, input: { xml: v2, fileName: "v2.xml" } });
    const folderIds = await database.rows<{ id: number }>(
      sql`select id from folders where workspace_id = ${ws} and ref_id = 'id-new'`,
    );
    expect(await touched(database, ws, result.revision)).toEqual(
      [
        "connection delete id-c-line",
        "element create id-new",
        "element delete id-and",
        `folder create ${folderIds[0]?.id}`,
        "node update id-n-data",
        "relationship delete id-r-j1",
        "relationship update id-r-j2",
      ].sort(),
    );
    expect(result.summary).toBe(
      "Imported v2.xml: 1 element added, 1 removed; 1 relationship changed, 1 removed; 1 node changed; " +
        "1 connection removed; 1 folder entry added",
    );
    // The model is the file's: exporting it and importing the export changes nothing.
    const now = (await exportModel({ ctx })).xml;
    expect(now).toContain('source="id-new"');
    expect((await importModel({ ctx, input: { xml: now } })).revision).toBe(result.revision);
  });

  // An import's creations of owned objects (property values, nodes) are found by their owner (migration 0033).
  test("what an import adds to an element or a view is in its history, and its restore to before takes it out", async () => {
    const ctx = await imported();
    const before = await currentRevision(database, ctx.workspaceId);
    const v2 = edited(
      FEATURES,
      [
        "<name>Insurant</name>\n",
        '<name>Insurant</name>\n      <properties>\n        <property propertyDefinitionRef="pd-owner">\n' +
          "          <value>Broker team</value>\n        </property>\n      </properties>\n",
      ],
      [
        "<name>Other</name>\n",
        "<name>Other</name>\n" +
          '        <node identifier="id-n-role" elementRef="id-role" xsi:type="Element" x="10" y="10" w="120" h="55"/>\n',
      ],
    );
    const result = await importModel({ ctx, input: { xml: v2, fileName: "v2.xml" } });
    const role = await getElementHistory({ ctx, input: { id: "id-role" } });
    expect(role.items[0]?.revision).toBe(result.revision);
    expect(JSON.stringify(role.items[0]?.fields)).toContain("Broker team");
    const other = await getViewHistory({ ctx, input: { id: "id-view-other" } });
    expect(other.items[0]?.revision).toBe(result.revision);
    expect(other.items[0]?.parts).toContainEqual(
      expect.objectContaining({ kind: "node", id: "id-n-role", change: "added" }),
    );

    await restoreObject({ ctx, input: { kind: "view", id: "id-view-other", revision: before } });
    expect((await getView({ ctx, input: { id: "id-view-other" } })).nodes).toEqual([]);
    await restoreObject({ ctx, input: { kind: "element", id: "id-role", revision: before } });
    expect((await getElement({ ctx, input: { id: "id-role" } })).properties).toEqual({});
  });

  test("a failing import leaves the model, its log and its versions as they were", async () => {
    const ctx = await imported();
    const ws = ctx.workspaceId;
    const before = {
      xml: (await exportModel({ ctx })).xml,
      revision: await currentRevision(database, ws),
      groups: (await groups(database, ws)).length,
      entries: await entryCount(ws),
      versions: (await listVersions({ ctx })).length,
    };
    // The database refuses the last table an import writes (property values), after the others were merged.
    await database.rows(sql`create function boom() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from new_rows where value = 'boom') then raise exception 'boom refused'; end if;
        return null;
      end $$`);
    await database.rows(sql`create trigger boom after insert on property_values referencing new table as new_rows
      for each statement execute function boom()`);
    try {
      const v2 = edited(
        FEATURES,
        ["<name>Retention</name>", "<name>Loyalty</name>"],
        [
          '<element identifier="id-role" xsi:type="BusinessRole">\n      <name>Insurant</name>',
          '<element identifier="id-role" xsi:type="BusinessRole">\n      <name>Insurant</name>\n      <properties><property propertyDefinitionRef="pd-owner"><value>boom</value></property></properties>',
        ],
      );
      const failed = await importModel({ ctx, input: { xml: v2, fileName: "v2.xml" } }).catch((e: unknown) => e);
      expect(String(failed)).toMatch(/boom refused/);
    } finally {
      await database.rows(sql`drop trigger boom on property_values`);
      await database.rows(sql`drop function boom()`);
    }
    expect({
      xml: (await exportModel({ ctx })).xml,
      revision: await currentRevision(database, ws),
      groups: (await groups(database, ws)).length,
      entries: await entryCount(ws),
      versions: (await listVersions({ ctx })).length,
    }).toEqual(before);
  });
});
