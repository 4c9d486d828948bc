import { randomUUID } from "node:crypto";
import { sql } from "@ams/db";
import type { TestDatabase } from "@ams/db/testing";
import type { Via } from "@ams/shared";
import { createWorkspace, type RequestContext } from "../../src/index.ts";

/** An organization with one workspace; the context of its owner, who came in `via`. */
export async function ownerContext(database: TestDatabase, via: Via = { kind: "browser", name: null }) {
  const orgId = randomUUID();
  await database.rows(sql`insert into organizations (id, slug, name) values (${orgId}, ${`o-${orgId}`}, 'History')`);
  const ctx: RequestContext = {
    database,
    userId: `owner-${orgId}`,
    username: "ana",
    actorName: "Ana Lima",
    organizationId: orgId,
    workspaceId: null,
    role: "owner",
    platformAdmin: false,
    via,
    requestId: `req-${orgId}`,
  };
  const ws = await createWorkspace({ ctx, input: { name: "History" } });
  return { ...ctx, workspaceId: ws.id } satisfies RequestContext;
}

export type Group = {
  revision: number;
  actor_id: string | null;
  actor_name: string | null;
  via_kind: string;
  via_name: string | null;
  request_id: string | null;
  summary: string;
};
export type Entry = {
  revision: number;
  seq: number;
  kind: string;
  object_id: string;
  owner_id: string | null;
  op: string;
  before: Record<string, unknown> | null;
  /** The state after, as the log's readers read it (ams_entry_after). */
  after: Record<string, unknown> | null;
  /** What the entry stores as `after` (nothing since migration 0031: the log keeps the row before only). */
  stored_after: Record<string, unknown> | null;
};

/** The workspace's change groups, oldest first. */
export async function groups(database: TestDatabase, ws: string): Promise<Group[]> {
  const rows = await database.rows<Group>(
    sql`select revision, actor_id, actor_name, via_kind, via_name, request_id, summary from change_groups
        where workspace_id = ${ws} order by revision`,
  );
  return rows.map((r) => ({ ...r, revision: Number(r.revision) }));
}

/** The entries of one revision, in order. */
export async function entries(database: TestDatabase, ws: string, revision: number): Promise<Entry[]> {
  const rows = await database.rows<Entry>(
    sql`select revision, seq, kind, object_id, owner_id, op, before,
          ams_entry_after(workspace_id, revision, seq, kind, object_id, op, after) as after, after as stored_after
        from change_entries where workspace_id = ${ws} and revision = ${revision} order by seq`,
  );
  return rows.map((r) => ({ ...r, revision: Number(r.revision) }));
}

/** The workspace's current revision. */
export async function currentRevision(database: TestDatabase, ws: string): Promise<number> {
  const [row] = await database.rows<{ revision: string | number }>(
    sql`select revision from workspaces where id = ${ws}`,
  );
  return Number(row?.revision);
}

/** "kind op object" lines of a revision's entries, sorted: what a reader of the group sees touched. */
export async function touched(database: TestDatabase, ws: string, revision: number): Promise<string[]> {
  return (await entries(database, ws, revision)).map((e) => `${e.kind} ${e.op} ${e.object_id}`).sort();
}
