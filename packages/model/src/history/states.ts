import type { Database, DbOrTx } from "@ams/db";
import { type SQL, sql } from "drizzle-orm";
import { asRow, type Kind, objectKey, type Row } from "./tables.ts";

/** An object's state at a revision: its row then, or null when it did not exist. */
export type ObjectState = { kind: Kind; objectId: string; row: Row | null };

/** Which objects a reader wants: all, one object (with what it owns: property values, folder entry, a view's content). */
export type StateFilter = { kind: "element" | "relationship" | "view"; objectId: string } | undefined;

/**
 * The state at `revision` of every object the log shows touched after it: the `before` of its first entry after the
 * revision (the change log's reconstruction rule). Objects not returned are now as they were then.
 */
export async function statesAfter(
  database: Database,
  ws: string,
  revision: number,
  filter?: StateFilter,
  on?: DbOrTx,
): Promise<Map<string, ObjectState>> {
  const only: SQL = filter
    ? // The object's own entries have no owner (an element, relationship or view): said for the object index (0033).
      sql`and ((kind = ${filter.kind} and object_id = ${filter.objectId} and owner_id is null) or owner_id = ${filter.objectId})`
    : sql``;
  const rows = await database.rows<{ kind: Kind; object_id: string; before: unknown }>(
    sql`select distinct on (kind, object_id) kind, object_id, before from change_entries
        where workspace_id = ${ws} and revision > ${revision} ${only}
        order by kind, object_id, revision, seq`,
    on,
  );
  const out = new Map<string, ObjectState>();
  for (const r of rows) {
    out.set(objectKey(r.kind, r.object_id), { kind: r.kind, objectId: r.object_id, row: asRow(r.before) });
  }
  return out;
}
