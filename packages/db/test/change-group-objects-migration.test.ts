import { randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import { migrationsFolder } from "../src/open.ts";
import { testServerUrl } from "../src/testing.ts";

/**
 * Upgrade from the release before 0026_change_group_objects: the change groups already logged get the objects a
 * history page lists (first 20 entries, the name each logged, the id a nameless node is named by), except those at
 * or below the workspace's retention mark, which the history keeps reading from their entries.
 */
const name = `ams_migr_${randomBytes(5).toString("hex")}`;
const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
let client: postgres.Sql;
let previousRelease: string;

beforeAll(async () => {
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(testServerUrl);
  url.pathname = `/${name}`;
  client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  previousRelease = mkdtempSync(join(tmpdir(), "ams-migrations-"));
  cpSync(migrationsFolder, previousRelease, { recursive: true });
  const journalFile = join(previousRelease, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.idx < 26);
  writeFileSync(journalFile, JSON.stringify(journal));
});

afterAll(async () => {
  await client?.end({ timeout: 5 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end({ timeout: 5 });
  rmSync(previousRelease, { recursive: true, force: true });
});

/** One change group as the previous release wrote it: the revision, the rows (captured by 0018's triggers), the group. */
async function group(ws: string, summary: string, write: (tx: postgres.TransactionSql) => Promise<unknown>) {
  await client.begin(async (tx) => {
    const [row] = await tx<{ revision: string }[]>`
      update workspaces set revision = revision + 1 where id = ${ws} returning revision`;
    const revision = Number(row!.revision);
    await tx`select set_config('ams.revision', ${String(revision)}, true), set_config('ams.workspace', ${ws}, true),
               set_config('ams.seq', '0', true)`;
    await write(tx);
    await tx`insert into change_groups (workspace_id, revision, via_kind, summary, entry_count)
             select ${ws}, ${revision}, 'system', ${summary}, count(*) from change_entries
             where workspace_id = ${ws} and revision = ${revision}`;
    await tx`select set_config('ams.revision', '', true)`;
  });
}

test("0026 stores the listed objects of the groups above the retention mark", async () => {
  await migrate(drizzle(client), { migrationsFolder: previousRelease });
  const org = randomUUID();
  const ws = randomUUID();
  await client`insert into organizations (id, slug, name) values (${org}, ${`o-${org}`}, 'Org')`;
  await client`insert into workspaces (id, organization_id, name) values (${ws}, ${org}, 'WS')`;
  await group(ws, "Created", async (tx) => {
    await tx`insert into elements (workspace_id, id, ord, type, name) values (${ws}, 'e-a', 0, 'ApplicationComponent', 'A')`;
    await tx`insert into views (workspace_id, id, ord, name) values (${ws}, 'v-1', 0, 'Main')`;
  });
  await group(ws, "Drew and renamed", async (tx) => {
    await tx`insert into view_nodes (workspace_id, id, view_id, ord, kind, element_id, x, y, w, h)
             values (${ws}, 'n-1', 'v-1', 0, 'element', 'e-a', 0, 0, 120, 55)`;
    await tx`update elements set name = 'A2' where workspace_id = ${ws} and id = 'e-a'`;
  });
  await client`update workspaces set history_compacted_through = 1 where id = ${ws}`;

  await migrate(drizzle(client), { migrationsFolder });

  const groups = await client<{ revision: string; objects: unknown }[]>`
    select revision, objects from change_groups where workspace_id = ${ws} order by revision`;
  expect(groups.map((g) => [Number(g.revision), g.objects])).toEqual([
    [1, null],
    [
      2,
      [
        ["node", "n-1", "create", null, "e-a"],
        ["element", "e-a", "update", "A2", null],
      ],
    ],
  ]);
});
