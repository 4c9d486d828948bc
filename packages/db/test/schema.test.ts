import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Database, migrationsFolder, openDatabase, sql } from "../src/index.ts";
import * as schema from "../src/schema/index.ts";
import { createTestDatabase, type TestDatabase, testServerUrl } from "../src/testing.ts";

/**
 * The database as the migrations build it: a fresh database has every table and column the Drizzle schema declares,
 * the constraints refuse what they should, and PGlite (standalone) ends up with exactly the catalogue PostgreSQL does.
 */
const tables = Object.values(schema as Record<string, unknown>)
  .filter((v): v is PgTable => is(v, PgTable))
  .map((t) => getTableConfig(t));

/** Tables, columns (type, nullability, default present), constraints and indexes of the public schema. */
async function catalogue(database: Database) {
  const columns = await database.rows<{ t: string; c: string; type: string; nullable: string; has_default: boolean }>(
    sql`select table_name as t, column_name as c, data_type as type, is_nullable as nullable,
          column_default is not null as has_default
        from information_schema.columns where table_schema = 'public' order by 1, 2`,
  );
  const constraints = await database.rows<{ t: string; name: string; kind: string }>(
    sql`select rel.relname as t, con.conname as name, con.contype::text as kind
        from pg_constraint con join pg_class rel on rel.oid = con.conrelid
        join pg_namespace ns on ns.oid = rel.relnamespace
        -- PostgreSQL 18 (PGlite) also lists NOT NULL as constraints; nullability is compared with the columns.
        where ns.nspname = 'public' and con.contype <> 'n' order by 1, 2`,
  );
  const indexes = await database.rows<{ t: string; name: string }>(
    sql`select tablename as t, indexname as name from pg_indexes where schemaname = 'public' order by 1, 2`,
  );
  const triggers = await database.rows<{ t: string; name: string }>(
    sql`select event_object_table as t, trigger_name as name from information_schema.triggers
        where trigger_schema = 'public' group by 1, 2 order by 1, 2`,
  );
  return { columns, constraints, indexes, triggers };
}

let pg: TestDatabase;
let lite: Database;
beforeAll(async () => {
  [pg, lite] = await Promise.all([createTestDatabase("ams_db"), openDatabase({ dataDir: "memory://" })]);
});
afterAll(async () => {
  await Promise.all([pg?.drop(), lite?.close()]);
});

describe("a fresh database", () => {
  test("has every table and column the schema declares, and every migration recorded", async () => {
    const { columns } = await catalogue(pg);
    const present = new Set(columns.map((c) => `${c.t}.${c.c}`));
    expect(tables.length).toBeGreaterThan(20);
    const missing = tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name}`)).filter((c) => !present.has(c));
    expect(missing).toEqual([]);
    const journal = (await import("../drizzle/meta/_journal.json", { with: { type: "json" } })).default as {
      entries: unknown[];
    };
    const [applied] = await pg.rows<{ n: number }>(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    expect(applied?.n).toBe(journal.entries.length);
  });

  test("opening it again applies nothing twice", async () => {
    const again = await openDatabase({ url: pg.url, maxConnections: 1 });
    try {
      const [applied] = await again.rows<{ n: number }>(
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      const [distinct] = await again.rows<{ n: number }>(
        sql`select count(distinct hash)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied?.n).toBe(distinct?.n);
    } finally {
      await again.close();
    }
  });
});

describe("an upgrade from the previous release", () => {
  test("keeps the data and ends with the same catalogue as a fresh database", async () => {
    const name = `ams_upgr_${randomBytes(5).toString("hex")}`;
    const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
    const folder = mkdtempSync(join(tmpdir(), "ams-previous-"));
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(testServerUrl);
    url.pathname = `/${name}`;
    const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
    let upgraded: Database | undefined;
    try {
      // The migrations as the previous release shipped them: all but the newest.
      cpSync(migrationsFolder, folder, { recursive: true });
      const journalFile = join(folder, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number }[] };
      const newest = Math.max(...journal.entries.map((e) => e.idx));
      journal.entries = journal.entries.filter((e) => e.idx < newest);
      writeFileSync(journalFile, JSON.stringify(journal));
      await migrate(drizzle(client), { migrationsFolder: folder });
      const [org] = await client`insert into organizations (name, slug) values ('Old', 'old') returning id`;
      const [ws] =
        await client`insert into workspaces (organization_id, name) values (${org?.id}, 'Kept') returning id`;
      // Content written by that release (capture off: what a release before the change log wrote, unrecorded).
      await client.begin(async (t) => {
        await t`select set_config('ams.capture', 'off', true)`;
        await t`insert into elements (workspace_id, id, ord, type, name) values (${ws?.id}, 'e1', 0, 'BusinessActor', 'Ann')`;
      });

      upgraded = await openDatabase({ url: url.toString(), maxConnections: 1 });
      const [kept] = await upgraded.rows<{ name: string }>(sql`select name from elements where id = 'e1'`);
      expect(kept?.name).toBe("Ann");
      expect(await catalogue(upgraded)).toEqual(await catalogue(pg));
    } finally {
      await upgraded?.close();
      await client.end({ timeout: 5 });
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("constraints", () => {
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => "accepted",
      (err: unknown) => {
        for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
          const c = (e as { code?: unknown }).code;
          if (typeof c === "string") return c;
        }
        return "unknown";
      },
    );

  test("unique slugs and memberships, foreign keys, and cascades from an organization down to its model", async () => {
    const slug = `s-${randomBytes(4).toString("hex")}`;
    const [org] = await pg.rows<{ id: string }>(
      sql`insert into organizations (name, slug) values ('A', ${slug}) returning id`,
    );
    if (!org) throw new Error("no organization");
    expect(await code(pg.rows(sql`insert into organizations (name, slug) values ('B', ${slug})`))).toBe("23505");
    await pg.rows(sql`insert into memberships (organization_id, user_id, role) values (${org.id}, 'u1', 'owner')`);
    expect(
      await code(
        pg.rows(sql`insert into memberships (organization_id, user_id, role) values (${org.id}, 'u1', 'viewer')`),
      ),
    ).toBe("23505");
    expect(
      await code(
        pg.rows(
          sql`insert into workspaces (organization_id, name) values ('00000000-0000-4000-8000-000000000000', 'x')`,
        ),
      ),
    ).toBe("23503");
    const [ws] = await pg.rows<{ id: string }>(
      sql`insert into workspaces (organization_id, name) values (${org.id}, 'W') returning id`,
    );
    if (!ws) throw new Error("no workspace");
    // Content is written in a change group (packages/model's withChange); here, with capture off instead.
    const uncaptured = (statement: ReturnType<typeof sql>) =>
      pg.db.transaction(async (tx) => {
        await pg.rows(sql`select set_config('ams.capture', 'off', true)`, tx);
        await pg.rows(statement, tx);
      });
    expect(
      await code(
        pg.rows(
          sql`insert into elements (workspace_id, id, ord, type, name) values (${ws.id}, 'e0', 0, 'BusinessActor', 'A')`,
        ),
      ),
    ).toBe("55000");
    await uncaptured(
      sql`insert into elements (workspace_id, id, ord, type, name) values (${ws.id}, 'e1', 0, 'BusinessActor', 'A')`,
    );
    // A relationship whose endpoint does not exist is refused by the database itself (0006_model_integrity).
    expect(
      await code(
        uncaptured(sql`insert into relationships (workspace_id, id, ord, type, source_id, target_id)
                    values (${ws.id}, 'r1', 0, 'Serving', 'e1', 'missing')`),
      ),
    ).toBe("23503");
    await pg.rows(sql`delete from organizations where id = ${org.id}`);
    const left = await pg.rows<{ n: number }>(
      sql`select (select count(*) from workspaces where id = ${ws.id})::int +
                 (select count(*) from elements where workspace_id = ${ws.id})::int +
                 (select count(*) from memberships where organization_id = ${org.id})::int as n`,
    );
    expect(left[0]?.n).toBe(0);
  });
});

describe("PGlite and PostgreSQL", () => {
  test("end up with the same tables, columns, constraints, indexes and triggers", async () => {
    const [onPostgres, onPglite] = await Promise.all([catalogue(pg), catalogue(lite)]);
    expect(onPglite.columns).toEqual(onPostgres.columns);
    expect(onPglite.constraints).toEqual(onPostgres.constraints);
    expect(onPglite.indexes).toEqual(onPostgres.indexes);
    expect(onPglite.triggers).toEqual(onPostgres.triggers);
  });

  test("refuse the same dangling relationship", async () => {
    const refused: string[] = [];
    for (const database of [pg, lite]) {
      const slug = `p-${randomBytes(4).toString("hex")}`;
      const [org] = await database.rows<{ id: string }>(
        sql`insert into organizations (name, slug) values ('P', ${slug}) returning id`,
      );
      const [ws] = await database.rows<{ id: string }>(
        sql`insert into workspaces (organization_id, name) values (${org?.id ?? ""}, 'W') returning id`,
      );
      // Change capture off: a raw write outside a change group is refused before the endpoint check.
      const err = await database.db
        .transaction(async (tx) => {
          await database.rows(sql`select set_config('ams.capture', 'off', true)`, tx);
          await database.rows(
            sql`insert into relationships (workspace_id, id, ord, type, source_id, target_id)
                values (${ws?.id ?? ""}, 'r', 0, 'Serving', 'a', 'b')`,
            tx,
          );
        })
        .then(
          () => "accepted",
          (e: unknown) =>
            String(
              (e as { cause?: { code?: string }; code?: string }).code ??
                (e as { cause?: { code?: string } }).cause?.code,
            ),
        );
      refused.push(err);
    }
    expect(refused).toEqual(["23503", "23503"]);
  });
});
