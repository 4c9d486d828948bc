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
 * Upgrade from the release before 0006_model_integrity: a database that races had already damaged (relationships
 * whose endpoint is gone, one attached to such a relationship, property values and folder entries of deleted
 * concepts) is repaired by the migration, and every removed row is recorded in data_repairs.
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
  // The migrations folder as the previous release shipped it: everything before 0006.
  previousRelease = mkdtempSync(join(tmpdir(), "ams-migrations-"));
  cpSync(migrationsFolder, previousRelease, { recursive: true });
  const journalFile = join(previousRelease, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.idx < 6);
  writeFileSync(journalFile, JSON.stringify(journal));
});

afterAll(async () => {
  await client?.end({ timeout: 5 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end({ timeout: 5 });
  rmSync(previousRelease, { recursive: true, force: true });
});

test("0006 repairs dangling relationships left by the old races and says what it removed", async () => {
  await migrate(drizzle(client), { migrationsFolder: previousRelease });
  const org = randomUUID();
  const ws = randomUUID();
  await client`insert into organizations (id, slug, name) values (${org}, ${`o-${org}`}, 'Org')`;
  await client`insert into workspaces (id, organization_id, name) values (${ws}, ${org}, 'WS')`;
  await client`insert into elements (workspace_id, id, ord, type, name) values
      (${ws}, 'e-a', 0, 'ApplicationComponent', 'A'), (${ws}, 'e-b', 1, 'ApplicationService', 'B')`;
  await client`insert into relationships (workspace_id, id, ord, type, source_id, target_id) values
      (${ws}, 'r-ok', 0, 'Serving', 'e-a', 'e-b'),
      (${ws}, 'r-dangling', 1, 'Serving', 'e-gone', 'e-b'),
      (${ws}, 'r-on-dangling', 2, 'Association', 'e-a', 'r-dangling'),
      (${ws}, 'r-on-ok', 3, 'Association', 'e-b', 'r-ok')`;
  await client`insert into property_definitions (workspace_id, id, ord, name) values (${ws}, 'pd-1', 0, 'Owner')`;
  await client`insert into property_values (workspace_id, owner_kind, owner_id, ord, definition_id, value) values
      (${ws}, 'element', 'e-a', 0, 'pd-1', 'kept'), (${ws}, 'element', 'e-gone', 0, 'pd-1', 'orphan'),
      (${ws}, 'relationship', 'r-dangling', 0, 'pd-1', 'orphan too')`;
  await client`insert into folders (workspace_id, id, ord, ref_id) values (${ws}, 1, 0, 'e-a'), (${ws}, 2, 1, 'e-gone')`;

  await migrate(drizzle(client), { migrationsFolder });

  const rels = await client`select id from relationships where workspace_id = ${ws} order by id`;
  expect(rels.map((r) => r.id)).toEqual(["r-ok", "r-on-ok"]);
  const values = await client`select owner_id from property_values where workspace_id = ${ws}`;
  expect(values.map((r) => r.owner_id)).toEqual(["e-a"]);
  const folders = await client`select ref_id from folders where workspace_id = ${ws}`;
  expect(folders.map((r) => r.ref_id)).toEqual(["e-a"]);
  const repairs = await client`select table_name, object_id, reason, "row" from data_repairs
      where migration = '0006_model_integrity' order by table_name, object_id`;
  expect(repairs.map((r) => `${r.table_name}:${r.object_id}`)).toEqual([
    "folders:e-gone",
    "property_values:e-gone",
    "property_values:r-dangling",
    "relationships:r-dangling",
    "relationships:r-on-dangling",
  ]);
  // The removed row itself is kept as JSON, so nothing disappears without a trace.
  const removed = repairs.find((r) => r.object_id === "r-dangling" && r.table_name === "relationships");
  expect(JSON.parse(removed?.row ?? "{}")).toMatchObject({ source_id: "e-gone", target_id: "e-b", type: "Serving" });

  // From now on the database refuses what the races used to leave behind.
  // (Change capture off, as a raw write outside the model's change groups is refused before any other check.)
  await expect(
    client.begin(async (tx) => {
      await tx`select set_config('ams.capture', 'off', true)`;
      await tx`insert into relationships (workspace_id, id, ord, type, source_id, target_id)
               values (${ws}, 'r-new', 9, 'Serving', 'e-missing', 'e-b')`;
    }),
  ).rejects.toThrow(/source 'e-missing' of relationship 'r-new' does not exist/);
});
