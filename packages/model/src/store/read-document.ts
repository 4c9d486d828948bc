import type { Database, DbOrTx, ModelInfo } from "@ams/db";
import { sql } from "drizzle-orm";
import type { ModelDocument } from "../exchange/document.ts";
import { readModelRest } from "./read-pieces.ts";

/**
 * The whole model of a workspace, read with one statement per table and no per-row mapping. Elements, relationships,
 * views and folders come in file order; nodes and connections view by view (by view id) in their order within the
 * view, which is all the serializer needs: it writes them under their view, and views in their own order. (Sorting
 * them by the view's order took a join and a sort of every node of the model.)
 */
export async function readModel(database: Database, ws: string, on?: DbOrTx): Promise<ModelDocument> {
  const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query, on);
  const [[info], propertyDefinitions, elements, relationships, { views, nodes, connections }, properties, folders] =
    await Promise.all([
      q<{ model: ModelInfo; name: string }>(sql`select model, name from workspaces where id = ${ws}`),
      q<ModelDocument["propertyDefinitions"][number]>(
        sql`select id, ord, name, type, is_system as "isSystem", i18n from property_definitions where workspace_id = ${ws} order by ord`,
      ),
      q<ModelDocument["elements"][number]>(
        sql`select id, ord, type, name, documentation, i18n from elements where workspace_id = ${ws} order by ord`,
      ),
      q<ModelDocument["relationships"][number]>(
        sql`select id, ord, type, source_id as "sourceId", target_id as "targetId", name, documentation, is_directed as "isDirected",
            access_type as "accessType", influence_strength as "influenceStrength", i18n
          from relationships where workspace_id = ${ws} order by ord`,
      ),
      readModelRest(database, ws, on),
      q<ModelDocument["properties"][number]>(
        sql`select owner_kind as "ownerKind", owner_id as "ownerId", ord, definition_id as "definitionId", value, i18n
          from property_values where workspace_id = ${ws} order by owner_kind, owner_id, ord`,
      ),
      q<ModelDocument["folders"][number]>(
        sql`select id, parent_id as "parentId", ord, identifier, label, documentation, ref_id as "refId", i18n
          from folders where workspace_id = ${ws} order by parent_id nulls first, ord`,
      ),
    ]);
  const model: ModelInfo = { ...(info?.model ?? {}) };
  if (model.name === undefined && info) model.name = info.name;
  return { model, propertyDefinitions, elements, relationships, views, nodes, connections, properties, folders };
}
