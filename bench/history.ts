import { type Database, openDatabase, sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import {
  createVersion,
  diffRevisions,
  exportModel,
  generateModel,
  getElementHistory,
  getWorkspaceHistory,
  importModel,
  listVersions,
  recordChange,
  SYSTEM_ACTOR,
  serializeExchange,
} from "@ams/model";
import postgres from "postgres";
import { TABLE_NAMES } from "./exchange/copy-floor.ts";
import { mb, shape, withLargeView } from "./exchange/documents.ts";
import { contextFor } from "./exchange/render-floor.ts";
import { interleave } from "./exchange/timing.ts";
import { diffInChild } from "./history/diff-child.ts";
import { report, section, verdict } from "./lib.ts";

/** The capture triggers of migration 0018 (statement-level, one per table and operation) and the model's. */
const CAPTURED = ["elements", "relationships", "views", "view_nodes", "connections", "folders"]
  .concat(["property_definitions", "property_values"])
  .flatMap((t) => ["insert", "update", "delete"].map((op) => [t, `${t}_capture_${op}`] as const))
  .concat([["workspaces", "workspaces_capture_model"]]);

/**
 * Issue 23: the change log's costs on real PostgreSQL, each figure beside a floor measured in the same run:
 * - a single element UPDATE recorded as a change group vs the same UPDATE with capture off;
 * - the 100k import with the capture triggers vs with them disabled, and the bytes its change group stores;
 * - history reads on a workspace with 1,000,000 change entries vs the bare SELECT of the same rows;
 * - diffs of two versions (ArchiMetal-sized, 100k in a child process for its peak RSS), export of a past version
 *   vs the current export, version creation vs a bare INSERT.
 */
export async function benchHistory() {
  const database = await createTestDatabase("ams_bench_history");
  const bare = postgres(database.url, { max: 4, onnotice: () => {} });
  const recorded = await openDatabase({ url: database.url, migrate: false, maxConnections: 1 });
  const unrecorded = await openDatabase({ url: database.url, migrate: false, maxConnections: 1 });
  try {
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench', 'Bench') returning id`,
    );
    const orgId = org!.id;
    const workspace = async (name: string) =>
      (
        await database.rows<{ id: string }>(
          sql`insert into workspaces (organization_id, name) values (${orgId}, ${name}) returning id`,
        )
      )[0]!.id;
    const analyze = () => bare.unsafe(`vacuum analyze ${TABLE_NAMES.join(", ")}, change_entries, change_groups`);

    // HISTORY_PARTS=update,reads,archimetal,large runs only those parts (default: all four).
    const parts = new Set((process.env.HISTORY_PARTS ?? "update,reads,archimetal,large").split(","));
    if (parts.has("update")) await singleUpdate(database, workspace, recorded, unrecorded, orgId);
    if (parts.has("reads")) await historyReads(database, bare, workspace, orgId);
    if (parts.has("archimetal")) await archimetal(database, workspace, orgId, analyze);
    if (parts.has("large")) await large(database, bare, workspace, orgId, analyze);
  } finally {
    await recorded.close();
    await unrecorded.close();
    await bare.end({ timeout: 5 });
    await database.drop();
  }
}

/** One element UPDATE: in a change group (open, UPDATE + capture triggers, close) vs capture off. */
async function singleUpdate(
  database: Database,
  workspace: (name: string) => Promise<string>,
  recorded: Database,
  unrecorded: Database,
  orgId: string,
) {
  section("History: a single element update, with and without change capture");
  const ws = await workspace("Single update");
  await importModel({
    ctx: contextFor(database, orgId, ws),
    input: { xml: serializeExchange(generateModel({ elements: 565, relationships: 724, views: 72, seed: 7 })) },
  });
  // The floor's connection has capture off for its session: the same UPDATE, the same trigger calls (they return
  // at once), no change group, no entries.
  await unrecorded.rows(sql`select set_config('ams.capture', 'off', false)`);
  let i = 0;
  const update = (db: Database, on: Parameters<Database["rows"]>[1]) =>
    db.rows(
      sql`update elements set name = ${`Renamed ${i}`} where workspace_id = ${ws} and id = ${`e-${i++ % 565}`}`,
      on,
    );
  const r = await interleave(
    {
      captured: () =>
        recorded.db.transaction((tx) =>
          recordChange(recorded, tx, ws, SYSTEM_ACTOR, "Renamed an element", (t) => update(recorded, t)),
        ),
      floor: () => unrecorded.db.transaction((tx) => update(unrecorded, tx)),
      // What the group's two statements (open: the revision; close: the group row) cost as bare round trips.
      roundTrips: () =>
        unrecorded.db.transaction(async (tx) => {
          await unrecorded.rows(sql`select 1`, tx);
          await update(unrecorded, tx);
          await unrecorded.rows(sql`select 1`, tx);
        }),
    },
    { rounds: 2000, warmup: 200 },
  );
  report(
    "element UPDATE recorded (group + entry) vs capture off, median",
    r.captured!.median,
    r.floor!.median,
    "<= floor + 0.3 ms",
    r.captured!.median <= r.floor!.median + 0.3,
  );
  report("element UPDATE recorded vs capture off, p99", r.captured!.p99, r.floor!.p99, "(informational)", true);
  report(
    "  floor + two empty statements in its transaction, median",
    r.roundTrips!.median,
    r.floor!.median,
    "(informational: the group's round trips)",
    true,
  );
}

/** 1,000,000 change entries (100,000 groups of 10), generated in SQL; a page of the history and an element's. */
async function historyReads(
  database: Database,
  bare: postgres.Sql,
  workspace: (name: string) => Promise<string>,
  orgId: string,
) {
  const GROUPS = 100_000;
  const PER_GROUP = 10;
  const OBJECTS = 10_000;
  const ws = await workspace("A million entries");
  const t0 = performance.now();
  await bare.unsafe(
    `insert into change_groups (workspace_id, revision, created_at, actor_id, actor_name, via_kind, summary, entry_count, kinds)
     select $1, g, now() - (${GROUPS} - g) * interval '1 minute', 'u-' || (g % 7), 'User ' || (g % 7), 'browser',
       'Renamed ' || ${PER_GROUP} || ' elements', ${PER_GROUP}, '{element}'
     from generate_series(1, ${GROUPS}) g`,
    [ws],
  );
  await bare.unsafe(
    `insert into change_entries (workspace_id, revision, seq, kind, object_id, op, before, after)
     select $1, g, s, 'element', 'e-' || ((g * ${PER_GROUP} + s) % ${OBJECTS}), 'update',
       jsonb_build_object('id', 'e-' || ((g * ${PER_GROUP} + s) % ${OBJECTS}), 'type', 'ApplicationComponent',
                          'name', 'Name ' || (g - 1), 'documentation', null, 'ord', s),
       jsonb_build_object('id', 'e-' || ((g * ${PER_GROUP} + s) % ${OBJECTS}), 'type', 'ApplicationComponent',
                          'name', 'Name ' || g, 'documentation', null, 'ord', s)
     from generate_series(1, ${GROUPS}) g, generate_series(1, ${PER_GROUP}) s`,
    [ws],
  );
  // What each group stores when it closes (packages/model/src/history/change.ts): the objects a history page lists
  // (migration 0023; a tree before it, compared by bench:compare, has no such column).
  const [stores] = await bare`select to_regproc('ams_change_group_objects') is not null as yes`;
  if (stores?.yes)
    await bare`update change_groups set objects = ams_change_group_objects(workspace_id, revision) where workspace_id = ${ws}`;
  await bare`update workspaces set revision = ${GROUPS} where id = ${ws}`;
  await bare.unsafe("vacuum analyze change_entries, change_groups");
  section(
    `History: a workspace with ${(GROUPS * PER_GROUP).toLocaleString("en")} change entries (${GROUPS.toLocaleString("en")} groups, generated in ${(
      (performance.now() - t0) / 1000
    ).toFixed(1)} s)`,
  );
  const ctx = contextFor(database, orgId, ws);
  let k = 0;
  const before = () => 1 + ((k++ * 7919) % GROUPS);
  const page = await interleave(
    {
      first: () => getWorkspaceHistory({ ctx, input: { id: ws, limit: 50 } }),
      deep: () => getWorkspaceHistory({ ctx, input: { id: ws, limit: 50, before: before() } }),
      floor: () =>
        bare`select revision, created_at, actor_id, actor_name, via_kind, via_name, request_id, summary, entry_count
             from change_groups where workspace_id = ${ws} and revision < ${before()} order by revision desc limit 51`,
    },
    { rounds: 500, warmup: 50 },
  );
  report(
    "workspace history, newest page of 50, p99",
    page.first!.p99,
    page.floor!.p99,
    "<= 10 ms",
    page.first!.p99 <= 10,
  );
  report(
    "workspace history, a page anywhere (before=), p99",
    page.deep!.p99,
    page.floor!.p99,
    "<= 10 ms",
    page.deep!.p99 <= 10,
  );
  report("workspace history, a page anywhere, median", page.deep!.median, page.floor!.median, "(informational)", true);
  let e = 0;
  const element = () => `e-${(e++ * 31) % OBJECTS}`;
  const one = await interleave(
    {
      history: () => getElementHistory({ ctx, input: { id: element(), limit: 50 } }),
      floor: () =>
        bare`select revision, op, before, after from change_entries
             where workspace_id = ${ws} and kind = 'element' and object_id = ${element()}
             order by revision desc limit 51`,
    },
    { rounds: 500, warmup: 50 },
  );
  report(
    "an element's history (100 changes, page of 50), p99",
    one.history!.p99,
    one.floor!.p99,
    "<= 5 ms",
    one.history!.p99 <= 5,
  );
  report("an element's history, median", one.history!.median, one.floor!.median, "(informational)", true);
}

/** Changes `count` elements' names and nodes' positions, one change group per ten. */
async function edit(database: Database, ws: string, count: number, label: string) {
  for (let g = 0; g < count / 10; g++) {
    await database.db.transaction((tx) =>
      recordChange(database, tx, ws, SYSTEM_ACTOR, `${label} ${g}`, async (t) => {
        await database.rows(
          sql`update elements set name = name || ${` ${label}`}
              where workspace_id = ${ws} and ord >= ${g * 10} and ord < ${g * 10 + 10}`,
          t,
        );
        await database.rows(
          sql`update view_nodes set x = x + 10
              where workspace_id = ${ws} and id in (select id from view_nodes where workspace_id = ${ws}
                                                    order by id offset ${g * 10} limit 10)`,
          t,
        );
      }),
    );
  }
}

/** An ArchiMetal-sized model: diff of two versions, export of a past version, version creation. */
async function archimetal(
  database: Database,
  workspace: (name: string) => Promise<string>,
  orgId: string,
  analyze: () => Promise<unknown>,
) {
  const doc = withLargeView(
    generateModel({ elements: 565, relationships: 724, views: 72, nodesPerView: 20, seed: 7, properties: true }),
    200,
  );
  section(`History: ArchiMetal-sized model (${shape(doc)})`);
  const ws = await workspace("ArchiMetal");
  const ctx = contextFor(database, orgId, ws);
  const empty = await createVersion({ ctx, input: { name: "Empty" } });
  await importModel({ ctx, input: { xml: serializeExchange(doc) } });
  const v1 = await createVersion({ ctx, input: { name: "Imported" } });
  await edit(database, ws, 100, "v2");
  const v2 = await createVersion({ ctx, input: { name: "Edited" } });
  await analyze();
  const r = await interleave(
    {
      edits: () => diffRevisions({ ctx, input: { from: v1.id, to: v2.id } }),
      whole: () => diffRevisions({ ctx, input: { from: empty.id, to: v2.id } }),
      past: () => exportModel({ ctx, input: { version: v1.id } }),
      current: () => exportModel({ ctx }),
    },
    { rounds: 30, warmup: 3 },
  );
  report(
    "diff of two versions, ArchiMetal-sized (100 elements renamed, 100 nodes moved), median",
    r.edits!.median,
    null,
    "<= 100 ms",
    r.edits!.median <= 100,
  );
  report(
    "diff of two versions, ArchiMetal-sized (empty -> whole model), median",
    r.whole!.median,
    null,
    "<= 100 ms",
    r.whole!.median <= 100,
  );
  report(
    "export of a past version vs the current export, ArchiMetal-sized, median",
    r.past!.median,
    r.current!.median,
    "<= 1.5 x current",
    r.past!.median <= 1.5 * r.current!.median,
  );
  await versionCreation(database, ctx, ws, "ArchiMetal-sized");
}

/** createVersion (one INSERT naming the revision) beside the bare INSERT of the same row. */
async function versionCreation(database: Database, ctx: ReturnType<typeof contextFor>, ws: string, label: string) {
  const r = await interleave(
    {
      create: () => createVersion({ ctx, input: { name: "Bench" } }),
      floor: () =>
        database.rows(
          sql`insert into workspace_versions (workspace_id, revision, name) select id, revision, 'Floor'
              from workspaces where id = ${ws}`,
        ),
    },
    { rounds: 300, warmup: 30 },
  );
  report(`version creation, ${label}, p99`, r.create!.p99, r.floor!.p99, "<= 10 ms", r.create!.p99 <= 10);
  report(`version creation, ${label}, median`, r.create!.median, r.floor!.median, "(informational)", true);
  await database.rows(sql`delete from workspace_versions where workspace_id = ${ws} and name in ('Bench', 'Floor')`);
}

/** The 100k model: import with and without capture, the import's group size, diffs, past export, versions. */
async function large(
  database: TestDatabase,
  bare: postgres.Sql,
  workspace: (name: string) => Promise<string>,
  orgId: string,
  analyze: () => Promise<unknown>,
) {
  const doc = withLargeView(
    generateModel({
      elements: 100_000,
      relationships: 200_000,
      views: 1000,
      nodesPerView: 20,
      seed: 11,
      properties: true,
    }),
    200,
  );
  const xml = serializeExchange(doc);
  section(`History: 100k model (${shape(doc)}; ${mb(xml.length)} of XML)`);
  const ws = await workspace("100k");
  const ctx = contextFor(database, orgId, ws);
  const clear = () =>
    bare.unsafe(`truncate ${TABLE_NAMES.join(", ")}, change_entries, change_groups, workspace_versions`);
  const setCapture = (on: boolean) =>
    bare.unsafe(CAPTURED.map(([t, trg]) => `alter table ${t} ${on ? "enable" : "disable"} trigger ${trg}`).join("; "));
  const imports = await interleave(
    {
      captured: async () => {
        await clear();
        const t = performance.now();
        await importModel({ ctx, input: { xml } });
        return performance.now() - t;
      },
      floor: async () => {
        await clear();
        await setCapture(false);
        try {
          const t = performance.now();
          await importModel({ ctx, input: { xml } });
          return performance.now() - t;
        } finally {
          await setCapture(true);
        }
      },
    },
    { rounds: 2 },
  );
  report(
    "import 100k into an empty workspace: capture on vs capture triggers disabled, median",
    imports.captured!.median,
    imports.floor!.median,
    "<= 1.15 x without",
    imports.captured!.median <= 1.15 * imports.floor!.median,
  );

  // A recorded import into the empty workspace, then the same file again (the change group of a replacement: every
  // row before and after).
  await clear();
  await importModel({ ctx, input: { xml } });
  const v1 = await createVersion({ ctx, input: { name: "Imported" } });
  await importModel({ ctx, input: { xml } });
  const replaced = await createVersion({ ctx, input: { name: "Re-imported" } });
  const sizes = await database.rows<{ revision: string; entries: string; bytes: string }>(
    sql`select revision, count(*) as entries, sum(pg_column_size(e.*)) as bytes from change_entries e
        where workspace_id = ${ws} group by revision order by revision`,
  );
  const elements = doc.elements.length;
  const [fresh, again] = sizes.map((s) => ({ entries: Number(s.entries), bytes: Number(s.bytes) }));
  verdict(
    "import change group size",
    `import change group, 100k: into an empty workspace ${mb(fresh!.bytes)} in ${fresh!.entries.toLocaleString("en")} entries ` +
      `(${(fresh!.bytes / elements).toFixed(0)} bytes per element of the model, ${(fresh!.bytes / fresh!.entries).toFixed(0)} per entry); ` +
      `replacing the same model ${mb(again!.bytes)} (${(again!.bytes / elements).toFixed(0)} bytes per element: every row before and after)` +
      "   target: compact (reported)",
    true,
  );
  await edit(database, ws, 1000, "v2");
  const v2 = await createVersion({ ctx, input: { name: "Edited" } });
  await analyze();

  const auto = (await listVersions({ ctx })).find((v) => v.automatic);
  for (const [label, from, to] of [
    ["1,000 elements renamed and 1,000 nodes moved", replaced.id, v2.id],
    ["the whole model re-imported", auto?.id ?? v1.id, replaced.id],
  ] as const) {
    const runs = [];
    for (let i = 0; i < 2; i++) runs.push(await diffInChild(database.url, orgId, ws, from, to));
    const ms = Math.min(...runs.map((x) => x.ms));
    const rss = Math.max(...runs.map((x) => x.maxRssMb));
    report(`diff of two versions, 100k (${label}), best of 2 cold processes`, ms, null, "<= 3 s", ms <= 3000);
    verdict(
      `diff 100k peak RSS (${label})`,
      `diff of two versions, 100k (${label}): peak RSS ${rss.toFixed(0)} MB (the process before the diff: ` +
        `${runs[0]!.baseRssMb.toFixed(0)} MB; ${runs[0]!.changes.toLocaleString("en")} changes)   target: <= 400 MB`,
      rss <= 400,
    );
  }

  const exp = await interleave(
    { past: () => exportModel({ ctx, input: { version: v1.id } }), current: () => exportModel({ ctx }) },
    { rounds: 3, warmup: 1 },
  );
  report(
    "export of a past version (before 2 imports and 101 edits) vs the current export, 100k, median",
    exp.past!.median,
    exp.current!.median,
    "<= 1.5 x current",
    exp.past!.median <= 1.5 * exp.current!.median,
  );
  await versionCreation(database, ctx, ws, "100k");
}
