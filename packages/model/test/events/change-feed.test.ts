import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  type ChangeFeed,
  createChangeFeed,
  createElement,
  deleteElement,
  latestRevision,
  readGroupsAfter,
  updateElement,
  withChange,
} from "../../src/index.ts";
import { ownerContext } from "../history/support.ts";

let database: TestDatabase;
let feed: ChangeFeed;
const heard: { ws: string; revision: number }[] = [];

beforeAll(async () => {
  database = await createTestDatabase("ams_feed");
  feed = await createChangeFeed(database, { pollMs: 200 });
  feed.subscribe((ws, revision) => heard.push({ ws, revision }));
});
afterAll(async () => {
  await feed?.close();
  await database?.drop();
});

/** Resolves once the feed has announced `revision` of the workspace (the test times out otherwise). */
async function heardUpTo(ws: string, revision: number) {
  while (!heard.some((h) => h.ws === ws && h.revision >= revision)) await new Promise((r) => setTimeout(r, 10));
}

test("each committed group is announced after its commit, in order, and read back with its objects", async () => {
  const ctx = await ownerContext(database);
  const ws = ctx.workspaceId;
  const start = (await latestRevision(database, ws)) ?? 0;
  await createElement({ ctx, input: { id: "crm", name: "CRM", type: "ApplicationComponent" } });
  await updateElement({ ctx, input: { id: "crm", name: "CRM system" } });
  await deleteElement({ ctx, input: { id: "crm" } });
  await heardUpTo(ws, start + 3);
  expect(heard.filter((h) => h.ws === ws && h.revision > start).map((h) => h.revision)).toEqual([
    start + 1,
    start + 2,
    start + 3,
  ]);

  const events = await readGroupsAfter(database, ws, start, 10);
  expect(events.map((e) => e.revision)).toEqual([start + 1, start + 2, start + 3]);
  expect(events[0]).toMatchObject({
    actor: { id: ctx.userId, name: "Ana Lima" },
    via: { kind: "browser", name: null },
    request_id: ctx.requestId,
    truncated: false,
  });
  expect(events.map((e) => e.objects.map((o) => [o.kind, o.id, o.op, o.state?.name ?? null]))).toEqual([
    [["element", "crm", "create", "CRM"]],
    [["element", "crm", "update", "CRM system"]],
    [["element", "crm", "delete", null]],
  ]);
  // Paged: after the first, at most one.
  expect((await readGroupsAfter(database, ws, start + 1, 1)).map((e) => e.revision)).toEqual([start + 2]);
  expect(await readGroupsAfter(database, ws, start + 3, 10)).toEqual([]);
});

test("a rolled-back change is never announced; another workspace's groups are not read", async () => {
  const ctx = await ownerContext(database);
  const other = await ownerContext(database);
  const ws = ctx.workspaceId;
  await createElement({ ctx, input: { id: "doomed", name: "Doomed", type: "Node" } });
  const start = (await latestRevision(database, ws)) ?? 0;
  await expect(
    withChange(ctx, { summary: "Doomed" }, async (tx) => {
      await tx.execute(sql`update elements set name = 'Renamed' where workspace_id = ${ws} and id = 'doomed'`);
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
  await createElement({ ctx: other, input: { id: "theirs", name: "Theirs", type: "Node" } });
  await createElement({ ctx, input: { id: "kept", name: "Kept", type: "Node" } });
  await heardUpTo(ws, start + 1);
  expect(heard.filter((h) => h.ws === ws && h.revision > start).map((h) => h.revision)).toEqual([start + 1]);
  const events = await readGroupsAfter(database, ws, start, 10);
  expect(events.flatMap((e) => e.objects.map((o) => o.id))).toEqual(["kept"]);
});

test("while the subscription is lost, changes are still announced (polling), and the feed says so", async () => {
  const ctx = await ownerContext(database);
  const ws = ctx.workspaceId;
  const start = (await latestRevision(database, ws)) ?? 0;
  await database.rows(
    sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name like '%:listen'`,
  );
  await createElement({ ctx, input: { id: "while-away", name: "While away", type: "Node" } });
  await heardUpTo(ws, start + 1);
  expect((await readGroupsAfter(database, ws, start, 10)).map((e) => e.objects[0]?.id)).toEqual(["while-away"]);
  // Back to announcements: a later change arrives too.
  while (feed.state().mode !== "notify") await new Promise((r) => setTimeout(r, 10));
  await createElement({ ctx, input: { id: "after", name: "After", type: "Node" } });
  await heardUpTo(ws, start + 2);
});
