import type { Database, DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";
import { deleteProperties } from "./properties/values.ts";
import { idList } from "./sql.ts";

/**
 * Removes relationships attached (directly or through relationships on relationships) to the given concepts,
 * with their property values and connections; returns the removed relationship ids.
 */
export async function deleteAttachedRelationships(database: Database, tx: DbOrTx, ws: string, conceptIds: string[]) {
  const removed = await database.rows<{ id: string }>(
    sql`with recursive doomed(id) as (
          select r.id from relationships r
            where r.workspace_id = ${ws} and (r.source_id in ${idList(conceptIds)} or r.target_id in ${idList(conceptIds)})
          union
          select r.id from relationships r join doomed d on r.source_id = d.id or r.target_id = d.id
            where r.workspace_id = ${ws}
        )
        delete from relationships where workspace_id = ${ws} and id in (select id from doomed) returning id`,
    tx,
  );
  const ids = removed.map((r) => r.id);
  await deleteProperties(database, tx, ws, "relationship", ids);
  await deleteFolderItems(database, tx, ws, ids);
  return ids;
}

/** Connections whose source or target node/connection no longer exists go too, repeatedly (connections on connections). */
export async function deleteDanglingConnections(database: Database, tx: DbOrTx, ws: string, viewIds?: string[]) {
  for (;;) {
    const gone = await database.rows(
      sql`delete from connections c where c.workspace_id = ${ws}
          ${viewIds ? sql`and c.view_id in ${idList(viewIds)}` : sql``}
          and (not exists (select 1 from view_nodes n where n.workspace_id = c.workspace_id and n.id = c.source_id)
               and not exists (select 1 from connections o where o.workspace_id = c.workspace_id and o.id = c.source_id)
            or not exists (select 1 from view_nodes n where n.workspace_id = c.workspace_id and n.id = c.target_id)
               and not exists (select 1 from connections o where o.workspace_id = c.workspace_id and o.id = c.target_id))
          returning c.id`,
      tx,
    );
    if (gone.length === 0) return;
  }
}

/** Organization (folder) entries that pointed at removed concepts. */
export async function deleteFolderItems(database: Database, tx: DbOrTx, ws: string, refIds: string[]) {
  if (refIds.length === 0) return;
  await database.rows(sql`delete from folders where workspace_id = ${ws} and ref_id in ${idList(refIds)}`, tx);
}
