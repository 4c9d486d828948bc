import type { Database, DbOrTx, I18n, ModelInfo } from "@ams/db";
import { sql } from "drizzle-orm";
import type { ModelDocument, PropertyValueRow } from "../exchange/document.ts";
import { groupProperties } from "../exchange/serialize.ts";
import type { PropertiesByOwner } from "../exchange/xml-writer.ts";

/**
 * The model of a workspace read in pieces, for writing it as it is read (the export): the long lists, elements and
 * relationships, come through a cursor a piece at a time with each row's property values, so the process never holds
 * them all (for a 100k model, holding every row as an object made the export slower per element the larger the
 * model, in garbage collection). The rest (the model's own fields, property definitions, folders, views with their
 * nodes and connections, the model's and views' property values) is read whole, as readModel reads it. Run it in one
 * repeatable-read transaction, so that the pieces are of one snapshot; nothing else may run on that transaction
 * while a list is being read.
 */

/** Rows of elements or relationships per piece. */
const PIECE = 5000;

export type ModelHead = Pick<ModelDocument, "model" | "propertyDefinitions" | "folders"> & {
  /** Property values of the model ("model\0") and of the views ("view\0<id>"). */
  props: PropertiesByOwner;
};

export type ModelRest = Pick<ModelDocument, "views" | "nodes" | "connections">;

/** A piece of a list, in model order, with its rows' property values by "kind\0ownerId". */
export type Piece<T> = { rows: T[]; props: PropertiesByOwner };

/** The model's own fields, its property definitions, folders, and the model's and views' property values. */
export async function readModelHead(database: Database, ws: string, on: DbOrTx): Promise<ModelHead> {
  const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query, on);
  const [[info], propertyDefinitions, folders, properties] = await Promise.all([
    q<{ model: ModelInfo; name: string }>(sql`select model, name from workspaces where id = ${ws}`),
    q<ModelDocument["propertyDefinitions"][number]>(
      sql`select id, ord, name, type, is_system as "isSystem", i18n from property_definitions where workspace_id = ${ws} order by ord`,
    ),
    q<ModelDocument["folders"][number]>(
      sql`select id, parent_id as "parentId", ord, identifier, label, documentation, ref_id as "refId", i18n
          from folders where workspace_id = ${ws} order by parent_id nulls first, ord`,
    ),
    q<PropertyValueRow>(
      sql`select owner_kind as "ownerKind", owner_id as "ownerId", ord, definition_id as "definitionId", value, i18n
          from property_values where workspace_id = ${ws} and owner_kind in ('model', 'view') order by owner_kind, owner_id, ord`,
    ),
  ]);
  const model: ModelInfo = { ...(info?.model ?? {}) };
  if (model.name === undefined && info) model.name = info.name;
  return { model, propertyDefinitions, folders, props: groupProperties(properties, propertyDefinitions) };
}

/** Each owner's values as [ord, definition, value, i18n], in ord order. */
const ownedValues = (ws: string, kind: "element" | "relationship") =>
  sql`(select v.owner_id, json_agg(json_build_array(v.ord, v.definition_id, v.value, v.i18n) order by v.ord) as props
      from property_values v where v.workspace_id = ${ws} and v.owner_kind = ${kind} group by v.owner_id)`;

type Owned = { id: string; props: [number, string, string, I18n | null][] | null };

/**
 * A list's rows in model order: by ord, ties by id in code-point order (collation "C"), the order the serializer's
 * inOrder gives them (it compares UTF-16 code units, which differs only between characters beyond U+FFFF and
 * U+E000 to U+FFFF, never in an xs:ID of ASCII letters).
 */
async function* ownedPieces<T extends { id: string }>(
  database: Database,
  on: DbOrTx,
  kind: "element" | "relationship",
  query: ReturnType<typeof sql>,
  definitions: ModelHead["propertyDefinitions"],
): AsyncIterable<Piece<T>> {
  for await (const rows of database.pieces<T & Owned>(query, PIECE, on)) {
    const values: PropertyValueRow[] = [];
    for (const row of rows) {
      if (row.props !== null) {
        for (const [ord, definitionId, value, i18n] of row.props) {
          values.push({ ownerKind: kind, ownerId: row.id, ord, definitionId, value, i18n });
        }
      }
    }
    yield { rows, props: groupProperties(values, definitions) };
  }
}

export function elementPieces(database: Database, ws: string, on: DbOrTx, head: ModelHead) {
  return ownedPieces<ModelDocument["elements"][number]>(
    database,
    on,
    "element",
    sql`select e.id, e.ord, e.type, e.name, e.documentation, e.i18n, p.props
        from elements e left join ${ownedValues(ws, "element")} p on p.owner_id = e.id
        where e.workspace_id = ${ws} order by e.ord, e.id collate "C"`,
    head.propertyDefinitions,
  );
}

export function relationshipPieces(database: Database, ws: string, on: DbOrTx, head: ModelHead) {
  return ownedPieces<ModelDocument["relationships"][number]>(
    database,
    on,
    "relationship",
    sql`select r.id, r.ord, r.type, r.source_id as "sourceId", r.target_id as "targetId", r.name, r.documentation,
          r.is_directed as "isDirected", r.access_type as "accessType", r.influence_strength as "influenceStrength",
          r.i18n, p.props
        from relationships r left join ${ownedValues(ws, "relationship")} p on p.owner_id = r.id
        where r.workspace_id = ${ws} order by r.ord, r.id collate "C"`,
    head.propertyDefinitions,
  );
}

/** Views with their nodes and connections (readModel reads them through this too). */
export async function readModelRest(database: Database, ws: string, on?: DbOrTx): Promise<ModelRest> {
  const q = <T>(query: ReturnType<typeof sql>) => database.rows<T>(query, on);
  const [views, nodes, connections] = await Promise.all([
    q<ModelDocument["views"][number]>(
      sql`select id, ord, name, viewpoint, documentation, i18n from views where workspace_id = ${ws} order by ord`,
    ),
    q<ModelDocument["nodes"][number]>(
      sql`select n.id, n.view_id as "viewId", n.parent_id as "parentId", n.ord, n.kind, n.element_id as "elementId",
            n.x, n.y, n.w, n.h, n.label, n.documentation, n.i18n, n.style
          from view_nodes n where n.workspace_id = ${ws} order by n.view_id, n.ord`,
    ),
    q<ModelDocument["connections"][number]>(
      sql`select c.id, c.view_id as "viewId", c.ord, c.kind, c.relationship_id as "relationshipId", c.source_id as "sourceId",
            c.target_id as "targetId", c.bendpoints, c.label, c.documentation, c.i18n, c.style
          from connections c where c.workspace_id = ${ws} order by c.view_id, c.ord`,
    ),
  ]);
  return { views, nodes, connections };
}
