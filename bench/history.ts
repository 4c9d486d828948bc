import { type Database, openDatabase, sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import {
  createRelationship,
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
  withChange,
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
 * - a single element UPDATE recorded as a change group (withChange, the verbs' path) vs the same UPDATE with capture off;
 * - create-relationship (the verb) from 32 concurrent connections, capture on vs the capture triggers disabled;
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

    // HISTORY_PARTS=update,concurrent,reads,archimetal,large runs only those parts (default: all five).
    const parts = new Set((process.env.HISTORY_PARTS ?? "update,concurrent,reads,archimetal,large").split(","));
    if (parts.has("update")) await singleUpdate(database, workspace, recorded, unrecorded, orgId);
    if (parts.has("concurrent")) await concurrentCreates(database, bare, workspace, orgId);
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

/**
 * One element UPDATE: in a change group as every verb records it (withChange: the group's opening pipelined with the
 * UPDATE, its capture trigger, the close pipelined with the COMMIT: as many round trips as the floor) vs capture off.
 */
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
  const ctx = contextFor(recorded, orgId, ws);
  let i = 0;
  const update = (db: Database, on: Parameters<Database["rows"]>[1]) =>
    db.rows(
      sql`update elements set name = ${`Renamed ${i}`} where workspace_id = ${ws} and id = ${`e-${i++ % 565}`}`,
      on,
    );
  const r = await interleave(
    {
      captured: () => withChange(ctx, { summary: "Renamed an element" }, (tx) => update(recorded, tx)),
      floor: () => unrecorded.db.transaction((tx) => update(unrecorded, tx)),
      // The same group with the close awaited before the COMMIT (recordChange, inside a caller's transaction).
      unpipelined: () =>
        recorded.db.transaction((tx) =>
          recordChange(recorded, tx, ws, SYSTEM_ACTOR, "Renamed an element", (t) => update(recorded, t)),
        ),
      // What one more round trip costs (the group's opening before withChange sent it with the verb's first statement).
      roundTrip: () =>
        unrecorded.db.transaction(async (tx) => {
          await unrecorded.rows(sql`select 1`, tx);
          await update(unrecorded, tx);
        }),
    },
    { rounds: 2000, warmup: 200 },
  );
  report(
    "element UPDATE recorded (group + entry) vs capture off, median",
    r.captured!.median,
    r.floor!.median,
    `<= floor + 0.3 ms (+${(r.captured!.median - r.floor!.median).toFixed(2)} ms)`,
    r.captured!.median <= r.floor!.median + 0.3,
  );
  report("element UPDATE recorded vs capture off, p99", r.captured!.p99, r.floor!.p99, "(informational)", true);
  report(
    "  the group closed before the COMMIT (recordChange), median",
    r.unpipelined!.median,
    r.floor!.median,
    "(informational)",
    true,
  );
  report(
    "  floor + one empty statement in its transaction, median",
    r.roundTrip!.median,
    r.floor!.median,
    "(informational: one more round trip)",
    true,
  );
}

/**
 * createRelationship (the verb, in its change group) from 32 connections at once on one ArchiMetal-sized workspace,
 * with the capture triggers vs with them disabled (the groups still open and close and take the workspace's
 * revision: no entries, no group rows, no announcement). Phases alternate (on, off, on, off, ...); p99 of each.
 */
async function concurrentCreates(
  database: TestDatabase,
  bare: postgres.Sql,
  workspace: (name: string) => Promise<string>,
  orgId: string,
) {
  const WORKERS = 32;
  const PER_PHASE = 1600;
  section(`History: create-relationship from ${WORKERS} concurrent connections, with and without change capture`);
  const ws = await workspace("Concurrent creates");
  await importModel({
    ctx: contextFor(database, orgId, ws),
    input: { xml: serializeExchange(generateModel({ elements: 565, relationships: 724, views: 72, seed: 7 })) },
  });
  const pool = await openDatabase({ url: database.url, migrate: false, maxConnections: WORKERS });
  const setCapture = (on: boolean) =>
    bare.unsafe(
      CAPTURED.filter(([t]) => t !== "workspaces")
        .map(([t, trg]) => `alter table ${t} ${on ? "enable" : "disable"} trigger ${trg}`)
        .join("; "),
    );
  const times = { captured: [] as number[], floor: [] as number[] };
  try {
    const ctx = contextFor(pool, orgId, ws);
    let n = 0;
    const phase = async (into: number[]) => {
      let left = PER_PHASE;
      await Promise.all(
        Array.from({ length: WORKERS }, async () => {
          while (left-- > 0) {
            const k = n++;
            const t = performance.now();
            await createRelationship({
              ctx,
              input: { type: "Association", source: `e-${k % 565}`, target: `e-${(k * 7 + 1) % 565}` },
            });
            into.push(performance.now() - t);
          }
        }),
      );
    };
    await phase([]); // warm-up: every connection's statements prepared
    for (let round = 0; round < 4; round++) {
      const off = round % 2 === 1;
      if (off) await setCapture(false);
      try {
        await phase(off ? times.floor : times.captured);
      } finally {
        if (off) await setCapture(true);
      }
    }
  } finally {
    await pool.close();
  }
  const at = (list: number[], q: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };
  const [p99, floor99] = [at(times.captured, 0.99), at(times.floor, 0.99)];
  report(
    `create-relationship, ${WORKERS} connections, p99`,
    p99,
    floor99,
    "<= 1.15 x capture off",
    p99 <= 1.15 * floor99,
  );
  report(
    `create-relationship, ${WORKERS} connections, median`,
    at(times.captured, 0.5),
    at(times.floor, 0.5),
    "(informational)",
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
  // A diff's floor: the bare read of the log's entries between the two revisions (what it cannot do without).
  const entries = (from: number, to: number) =>
    database.rows(
      sql`select kind, object_id, op, before, after from change_entries
          where workspace_id = ${ws} and revision > ${from} and revision <= ${to} order by revision, seq`,
    );
  const r = await interleave(
    {
      edits: () => diffRevisions({ ctx, input: { from: v1.id, to: v2.id } }),
      editsFloor: () => entries(v1.revision, v2.revision),
      whole: () => diffRevisions({ ctx, input: { from: empty.id, to: v2.id } }),
      wholeFloor: () => entries(empty.revision, v2.revision),
      past: () => exportModel({ ctx, input: { version: v1.id } }),
      current: () => exportModel({ ctx }),
    },
    { rounds: 30, warmup: 3 },
  );
  report(
    "diff of two versions, ArchiMetal-sized (100 elements renamed, 100 nodes moved), median",
    r.edits!.median,
    r.editsFloor!.median,
    "<= 100 ms",
    r.edits!.median <= 100,
  );
  report(
    "diff of two versions, ArchiMetal-sized (empty -> whole model), median",
    r.whole!.median,
    r.wholeFloor!.median,
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

/** The model with 10 elements renamed and 2 added (what a round trip through Archi or a CMDB brings back). */
function withDozenChanges(doc: ReturnType<typeof generateModel>): ReturnType<typeof generateModel> {
  const last = doc.elements.reduce((max, e) => Math.max(max, e.ord), 0);
  return {
    ...doc,
    elements: [
      ...doc.elements.map((e, i) => (i < 10 ? { ...e, name: `${e.name} (edited)` } : e)),
      ...[1, 2].map((n) => ({
        id: `e-added-${n}`,
        ord: last + n,
        type: "ApplicationComponent",
        name: `Added ${n}`,
        documentation: null,
        i18n: null,
      })),
    ],
  };
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

  // A recorded import into the empty workspace, then the same file again (an import writes only what differs: nothing),
  // then the round trip with Archi or a CMDB: the same model with a dozen changes (10 elements renamed, 2 added).
  await clear();
  let t = performance.now();
  await importModel({ ctx, input: { xml } });
  const freshMs = performance.now() - t;
  const v1 = await createVersion({ ctx, input: { name: "Imported" } });
  t = performance.now();
  const same = await importModel({ ctx, input: { xml } });
  const sameMs = performance.now() - t;
  const dozenXml = serializeExchange(withDozenChanges(doc));
  t = performance.now();
  const dozen = await importModel({ ctx, input: { xml: dozenXml } });
  const dozenMs = performance.now() - t;
  const replaced = await createVersion({ ctx, input: { name: "Re-imported" } });
  const written = (r: { added?: number; changed?: number; removed?: number }) =>
    r.added === undefined
      ? "every row deleted and inserted"
      : `${r.added} added, ${r.changed} changed, ${r.removed} removed`;
  report(
    "re-import of the same 100k file over the model (recorded), vs the import into the empty workspace",
    sameMs,
    freshMs,
    `(informational: ${written(same)})`,
    true,
  );
  report(
    "re-import of the 100k file with a dozen changes, vs the import into the empty workspace",
    dozenMs,
    freshMs,
    `(informational: ${written(dozen)})`,
    true,
  );
  const sizes = await database.rows<{ revision: string; entries: string; bytes: string }>(
    sql`select revision, count(*) as entries, sum(pg_column_size(e.*)) as bytes from change_entries e
        where workspace_id = ${ws} group by revision order by revision`,
  );
  const elements = doc.elements.length;
  const groupsOf = sizes.map((s) => ({
    revision: Number(s.revision),
    entries: Number(s.entries),
    bytes: Number(s.bytes),
  }));
  const fresh = groupsOf[0]!;
  const again = groupsOf.filter((g) => g.revision > fresh.revision);
  const againBytes = again.reduce((n, g) => n + g.bytes, 0);
  const againEntries = again.reduce((n, g) => n + g.entries, 0);
  verdict(
    "import change group size",
    `import change group, 100k: into an empty workspace ${mb(fresh.bytes)} in ${fresh.entries.toLocaleString("en")} entries ` +
      `(${(fresh.bytes / elements).toFixed(0)} bytes per element of the model, ${(fresh.bytes / fresh.entries).toFixed(0)} per entry); ` +
      `the same file again, then with a dozen changes: ${again.length} group(s), ${againEntries.toLocaleString("en")} entries, ${mb(againBytes)}` +
      "   target: compact (reported)",
    true,
  );
  await edit(database, ws, 1000, "v2");
  const v2 = await createVersion({ ctx, input: { name: "Edited" } });
  await analyze();

  const auto = (await listVersions({ ctx })).find((v) => v.automatic);
  const versions = new Map((await listVersions({ ctx })).map((v) => [v.id, v.revision]));
  for (const [label, from, to] of [
    ["1,000 elements renamed and 1,000 nodes moved", replaced.id, v2.id],
    ["across a re-import of the file with a dozen changes", auto?.id ?? v1.id, replaced.id],
  ] as const) {
    const runs = [];
    const floors = [];
    for (let i = 0; i < 2; i++) {
      runs.push(await diffInChild(database.url, orgId, ws, from, to));
      // The floor: the bare read of the entries between the two revisions, streamed (nothing kept).
      const t = performance.now();
      await bare`select kind, object_id, op, before, after from change_entries
                 where workspace_id = ${ws} and revision > ${versions.get(from)!} and revision <= ${versions.get(to)!}
                 order by revision, seq`.cursor(5000, () => {});
      floors.push(performance.now() - t);
    }
    const ms = Math.min(...runs.map((x) => x.ms));
    const rss = Math.max(...runs.map((x) => x.maxRssMb));
    report(
      `diff of two versions, 100k (${label}), best of 2 cold processes`,
      ms,
      Math.min(...floors),
      "<= 3 s",
      ms <= 3000,
    );
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
