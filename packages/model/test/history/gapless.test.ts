import { randomUUID } from "node:crypto";
import { type Database, openDatabase, sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createElement, type RequestContext, updateElement } from "../../src/index.ts";

/**
 * Revisions under contention, on real PostgreSQL with a pool as wide as the writers: 32 writers each make 50 changes
 * to one workspace at once. The log must come out as exactly 1..1600, each change in it once, in commit order.
 */
const WRITERS = 32;
const WRITES = 50;

let database: TestDatabase;
let pool: Database;
beforeAll(async () => {
  database = await createTestDatabase("ams_gapless");
  pool = await openDatabase({ url: database.url, maxConnections: WRITERS, migrate: false });
});
afterAll(async () => {
  await pool?.close();
  await database?.drop();
});

test("32 concurrent writers x 50 writes: revisions are exactly 1..1600 and every change is in the log", async () => {
  const orgId = randomUUID();
  await database.rows(sql`insert into organizations (id, slug, name) values (${orgId}, ${`o-${orgId}`}, 'Race')`);
  // The bare workspace row (createWorkspace would record its system property definition as revision 1).
  const [ws] = await database.rows<{ id: string }>(
    sql`insert into workspaces (organization_id, name) values (${orgId}, 'Race') returning id`,
  );
  const workspaceId = ws?.id ?? "";
  const contextOf = (writer: number): RequestContext => ({
    database: pool,
    userId: `writer-${writer}`,
    username: `writer-${writer}`,
    organizationId: orgId,
    workspaceId,
    role: "editor",
    platformAdmin: false,
    via: { kind: "api_token", name: `token ${writer}` },
  });
  const answered: number[] = [];
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      const ctx = contextOf(writer);
      const id = `el-${writer}`;
      answered.push((await createElement({ ctx, input: { id, name: `${writer}:0`, type: "Node" } })).revision);
      for (let k = 1; k < WRITES; k++) {
        answered.push((await updateElement({ ctx, input: { id, name: `${writer}:${k}` } })).revision);
      }
    }),
  );

  const total = WRITERS * WRITES;
  const groups = await database.rows<{ revision: string; actor_id: string; n: number }>(
    sql`select g.revision::text, g.actor_id,
          (select count(*)::int from change_entries e where e.workspace_id = g.workspace_id and e.revision = g.revision) as n
        from change_groups g where g.workspace_id = ${workspaceId} order by g.revision`,
  );
  const expected = Array.from({ length: total }, (_, i) => i + 1);
  expect(groups.map((g) => Number(g.revision))).toEqual(expected);
  expect(groups.every((g) => g.n === 1)).toBe(true);
  // Each verb answered the revision it committed: all different, the same set.
  expect([...answered].sort((a, b) => a - b)).toEqual(expected);
  const [row] = await database.rows<{ revision: string }>(
    sql`select revision::text from workspaces where id = ${workspaceId}`,
  );
  expect(Number(row?.revision)).toBe(total);

  // Every writer's 50 changes are in the log, in the order it made them, and its element carries the last one.
  const entries = await database.rows<{ revision: string; object_id: string; name: string }>(
    sql`select e.revision::text, e.object_id,
          ams_entry_after(e.workspace_id, e.revision, e.seq, e.kind, e.object_id, e.op, e.after)->>'name' as name
        from change_entries e
        where e.workspace_id = ${workspaceId} order by e.revision`,
  );
  const elements = await database.rows<{ id: string; name: string; revision: string }>(
    sql`select id, name, revision::text from elements where workspace_id = ${workspaceId}`,
  );
  expect(elements).toHaveLength(WRITERS);
  for (let writer = 0; writer < WRITERS; writer++) {
    const mine = entries.filter((e) => e.object_id === `el-${writer}`);
    expect(mine.map((e) => e.name)).toEqual(Array.from({ length: WRITES }, (_, k) => `${writer}:${k}`));
    const element = elements.find((e) => e.id === `el-${writer}`);
    expect(element?.name).toBe(`${writer}:${WRITES - 1}`);
    expect(element?.revision).toBe(mine.at(-1)?.revision);
  }
}, 120_000);
