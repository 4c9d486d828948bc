import { type Database, sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import {
  draftChanges,
  forkDraft,
  generateModel,
  importModel,
  mergeDraft,
  recordChange,
  SYSTEM_ACTOR,
  serializeExchange,
} from "@ams/model";
import { TABLE_NAMES } from "./exchange/copy-floor.ts";
import { shape } from "./exchange/documents.ts";
import { contextFor } from "./exchange/render-floor.ts";
import { report, section } from "./lib.ts";

const COPIED = [
  "property_definitions",
  "elements",
  "relationships",
  "views",
  "view_nodes",
  "connections",
  "property_values",
  "folders",
];

/**
 * Issue 25: drafts on real PostgreSQL, each figure beside a floor measured in the same run:
 * - fork of an ArchiMetal-sized model and of the 100k model vs the bare copy (one INSERT ... SELECT per table in one
 *   transaction, capture off: what any copy of the rows costs);
 * - the changes of a draft with 1,000 changed objects of the 100k model vs the bare read of its log;
 * - the merge of 1,000 non-conflicting changes (one transaction) vs one UPDATE of the same 1,000 rows recorded as
 *   one change group.
 */
export async function benchDrafts() {
  const database = await createTestDatabase("ams_bench_drafts");
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
    const small = generateModel({ elements: 565, relationships: 724, views: 72, nodesPerView: 20, seed: 7 });
    section(`Drafts: ArchiMetal-sized model (${shape(small)})`);
    const ws = await workspace("ArchiMetal");
    await importModel({ ctx: contextFor(database, orgId, ws), input: { xml: serializeExchange(small) } });
    await forks(database, workspace, orgId, ws, "ArchiMetal-sized", 20, 100);

    const big = generateModel({ elements: 100_000, relationships: 200_000, views: 1000, nodesPerView: 20, seed: 11 });
    section(`Drafts: 100k model (${shape(big)})`);
    const large = await workspace("100k");
    await importModel({ ctx: contextFor(database, orgId, large), input: { xml: serializeExchange(big) } });
    await database.rows(sql`vacuum analyze ${sql.raw(TABLE_NAMES.join(", "))}, change_entries`);
    await forks(database, workspace, orgId, large, "100k", 3, 1000);
    await changesAndMerge(database, orgId, large);
  } finally {
    await database.drop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};
const timed = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

/** forkDraft beside the bare copy of the same rows, alternating; each copy is dropped after it is timed. */
async function forks(
  database: Database,
  workspace: (name: string) => Promise<string>,
  orgId: string,
  base: string,
  label: string,
  rounds: number,
  targetMs: number,
) {
  const ctx = contextFor(database, orgId, base);
  const fork: number[] = [];
  const floor: number[] = [];
  const columns = new Map<string, string>();
  for (const t of COPIED) {
    const [c] = await database.rows<{ cols: string }>(
      sql`select string_agg(quote_ident(column_name), ', ' order by ordinal_position) as cols
          from information_schema.columns
          where table_schema = current_schema() and table_name = ${t} and column_name <> 'workspace_id'`,
    );
    columns.set(t, c?.cols ?? "");
  }
  for (let i = 0; i < rounds; i++) {
    let draftId = "";
    fork.push(
      await timed(async () => {
        draftId = (await forkDraft({ ctx, input: { name: `Bench ${i}` } })).id;
      }),
    );
    await database.rows(sql`delete from workspaces where id = ${draftId}`);
    const copy = await workspace(`Copy ${i}`);
    floor.push(
      await timed(() =>
        database.db.transaction(async (tx) => {
          await database.rows(sql`select set_config('ams.capture', 'off', true)`, tx);
          for (const t of COPIED) {
            await database.rows(
              sql`insert into ${sql.raw(t)} (workspace_id, ${sql.raw(columns.get(t) ?? "")})
                  select ${copy}::uuid, ${sql.raw(columns.get(t) ?? "")} from ${sql.raw(t)} where workspace_id = ${base}`,
              tx,
            );
          }
        }),
      ),
    );
    await database.rows(sql`delete from workspaces where id = ${copy}`);
  }
  const [count] = await database.rows<{ n: string | number }>(
    sql`select (select count(*) from elements where workspace_id = ${base})
      + (select count(*) from relationships where workspace_id = ${base})
      + (select count(*) from view_nodes where workspace_id = ${base})
      + (select count(*) from connections where workspace_id = ${base})
      + (select count(*) from property_values where workspace_id = ${base})
      + (select count(*) from folders where workspace_id = ${base}) as n`,
  );
  report(
    `fork of the ${label} model (${Number(count?.n).toLocaleString("en")} rows), median`,
    median(fork),
    median(floor),
    `<= ${targetMs} ms`,
    median(fork) <= targetMs,
  );
}

/** Renames `n` elements of the draft and moves nothing else, ten change groups of n/10. */
async function change(database: Database, draft: string, n: number) {
  for (let g = 0; g < 10; g++) {
    await database.db.transaction((tx) =>
      recordChange(database, tx, draft, SYSTEM_ACTOR, `Renamed ${n / 10}`, (t) =>
        database.rows(
          sql`update elements set name = name || ' (draft)' where workspace_id = ${draft}
              and ord >= ${g * (n / 10)} and ord < ${(g + 1) * (n / 10)}`,
          t,
        ),
      ),
    );
  }
}

/** A draft of the 100k model with 1,000 renamed elements: its changes, and its merge, beside their floors. */
async function changesAndMerge(database: Database, orgId: string, base: string) {
  const ctx = contextFor(database, orgId, base);
  const reads: number[] = [];
  const readFloor: number[] = [];
  const merges: number[] = [];
  const mergeFloor: number[] = [];
  for (let i = 0; i < 3; i++) {
    const draft = await forkDraft({ ctx, input: { name: `Merge ${i}` } });
    await change(database, draft.id, 1000);
    const inDraft = { ...ctx, workspaceId: draft.id };
    for (let k = 0; k < 3; k++) {
      reads.push(await timed(() => draftChanges({ ctx: inDraft })));
      readFloor.push(
        await timed(() =>
          database.rows(
            sql`select kind, object_id, before, after from change_entries where workspace_id = ${draft.id}
                order by kind, object_id, revision, seq`,
          ),
        ),
      );
    }
    merges.push(await timed(() => mergeDraft({ ctx: inDraft, input: {} })));
    mergeFloor.push(
      await timed(() =>
        database.db.transaction((tx) =>
          recordChange(database, tx, base, SYSTEM_ACTOR, "Floor", (t) =>
            database.rows(
              sql`update elements set documentation = ${`floor ${i}`} where workspace_id = ${base} and ord < 1000`,
              t,
            ),
          ),
        ),
      ),
    );
  }
  report(
    "changes of a draft with 1,000 changed objects (100k model), median",
    median(reads),
    median(readFloor),
    "<= 300 ms",
    median(reads) <= 300,
  );
  report(
    "merge of 1,000 non-conflicting changes (100k model, one transaction), median",
    median(merges),
    median(mergeFloor),
    "<= 2000 ms",
    median(merges) <= 2000,
  );
}
