import type { Database, DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";
import { type GroupRow, groupColumns, toHeader } from "../history/read-groups.ts";
import type { ChangeKind } from "../history/read-schemas.ts";
import { asRow, entryAfter } from "../history/tables.ts";
import { type ChangedObject, type ChangeEvent, EVENT_OBJECTS_MAX } from "./schemas.ts";

/** Largest batch one read returns. */
export const READ_GROUPS_MAX = 500;

type EntryRow = {
  revision: number | string;
  kind: ChangeKind;
  object_id: string;
  owner_id: string | null;
  created: boolean;
  after: unknown;
};

/**
 * The workspace's committed change groups after `revision`, oldest first, at most `limit` (1..500): each with the
 * objects it touched, their new state or deletion, read from the change log's entries. An object touched twice in
 * one group appears once (its last state; `create` when it did not exist before the group). A group of more than
 * EVENT_OBJECTS_MAX entries, or one whose detail the history retention compacted, comes without objects (`truncated`). No workspace check beyond the WHERE clause:
 * callers authorize the workspace first.
 */
export async function readGroupsAfter(
  database: Database,
  workspaceId: string,
  revision: number,
  limit: number,
  on?: DbOrTx,
): Promise<ChangeEvent[]> {
  const take = Math.max(1, Math.min(READ_GROUPS_MAX, Math.trunc(limit)));
  // A group whose entries' detail was compacted (history retention) has no states left to send: truncated.
  const groups = await database.rows<GroupRow & { entry_count: number; compacted: boolean }>(
    sql`select ${groupColumns}, g.entry_count, g.revision <= w.history_compacted_through as compacted
        from change_groups g join workspaces w on w.id = g.workspace_id
        where g.workspace_id = ${workspaceId} and g.revision > ${revision}
        order by g.revision limit ${take}`,
    on,
  );
  if (groups.length === 0) return [];
  const whole = (g: { entry_count: number; compacted: boolean }) => g.entry_count <= EVENT_OBJECTS_MAX && !g.compacted;
  const small = groups.filter(whole).map((g) => Number(g.revision));
  const objects = new Map<number, Map<string, ChangedObject>>();
  if (small.length > 0) {
    const first = Math.min(...small);
    const last = Math.max(...small);
    // One range scan of the primary key; the first entry of an object says whether the group created it.
    const entries = await database.rows<EntryRow>(
      sql`select e.revision, e.kind, e.object_id, e.owner_id, ${entryAfter("e")} as after,
            (first_value(e.op) over w) = 'create' as created
          from change_entries e
          where e.workspace_id = ${workspaceId} and e.revision between ${first} and ${last}
            and e.revision in (select json_array_elements_text(${JSON.stringify(small)}::json)::bigint)
          window w as (partition by e.revision, e.kind, e.object_id order by e.seq)
          order by e.revision, e.seq`,
      on,
    );
    for (const e of entries) {
      const rev = Number(e.revision);
      const touched = objects.get(rev) ?? new Map<string, ChangedObject>();
      objects.set(rev, touched);
      const state = asRow(e.after);
      const key = `${e.kind}:${e.object_id}`;
      // Re-inserted so the object sits where it was last touched (a client applies objects in order).
      touched.delete(key);
      touched.set(key, {
        kind: e.kind,
        id: e.object_id,
        owner_id: e.owner_id,
        op: state === null ? "delete" : e.created ? "create" : "update",
        state,
      });
    }
  }
  return groups.map((g) => {
    const rev = Number(g.revision);
    const truncated = !whole(g);
    return { ...toHeader(g), objects: truncated ? [] : [...(objects.get(rev)?.values() ?? [])], truncated };
  });
}

/** The workspace's latest committed revision (0 before its first change); null when there is no such workspace. */
export async function latestRevision(database: Database, workspaceId: string, on?: DbOrTx): Promise<number | null> {
  const [row] = await database.rows<{ revision: number | string }>(
    sql`select revision from workspaces where id = ${workspaceId}`,
    on,
  );
  return row ? Number(row.revision) : null;
}
