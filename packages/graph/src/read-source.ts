import { type Database, type DbOrTx, sql } from "@ams/db";
import type { GraphSource } from "./graph-rows.ts";

/**
 * What the graph needs of a workspace's model, read with one statement per table: the columns the graph shows
 * (not the diagram geometry or styles that readModel also returns), so a large model loads in a fraction of the time.
 * Read in one snapshot with the model's revision, which the graph then records as the one it shows.
 */
export async function readGraphSource(database: Database, ws: string): Promise<GraphSource & { revision: number }> {
  return database.db.transaction((tx) => readSourceIn(database, tx, ws), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

async function readSourceIn(database: Database, tx: DbOrTx, ws: string): Promise<GraphSource & { revision: number }> {
  const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query, tx);
  const [head] = await q<{ revision: string | number }>(sql`select revision from workspaces where id = ${ws}`);
  const [propertyDefinitions, elements, relationships, views, nodes, properties] = await Promise.all([
    q<GraphSource["propertyDefinitions"][number]>(
      sql`select id, name, type from property_definitions where workspace_id = ${ws}`,
    ),
    q<GraphSource["elements"][number]>(
      sql`select id, type, name, documentation from elements where workspace_id = ${ws} order by ord`,
    ),
    q<GraphSource["relationships"][number]>(
      sql`select id, type, source_id as "sourceId", target_id as "targetId", name, documentation, is_directed as "isDirected",
            access_type as "accessType", influence_strength as "influenceStrength"
          from relationships where workspace_id = ${ws} order by ord`,
    ),
    q<GraphSource["views"][number]>(
      sql`select id, name, viewpoint, documentation from views where workspace_id = ${ws} order by ord`,
    ),
    q<GraphSource["nodes"][number]>(
      sql`select distinct view_id as "viewId", element_id as "elementId" from view_nodes where workspace_id = ${ws} and element_id is not null`,
    ),
    q<GraphSource["properties"][number]>(
      sql`select owner_kind as "ownerKind", owner_id as "ownerId", definition_id as "definitionId", value from property_values
          where workspace_id = ${ws} and owner_kind in ('element', 'relationship', 'view') order by owner_kind, owner_id, ord`,
    ),
  ]);
  return {
    propertyDefinitions,
    elements,
    relationships,
    views,
    nodes,
    properties,
    revision: Number(head?.revision ?? 0),
  };
}
