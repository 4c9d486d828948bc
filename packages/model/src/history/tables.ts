import type { Database, DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";

/** A row as the change log stores it: the table's columns (snake_case) without workspace_id and revision. */
export type Row = Record<string, unknown>;

/** The kinds of the change log that are rows of a content table ("model" is workspaces.model). */
export const ROW_KINDS = [
  "property_definition",
  "element",
  "relationship",
  "view",
  "node",
  "connection",
  "property_value",
  "folder",
] as const;
export type RowKind = (typeof ROW_KINDS)[number];
export type Kind = RowKind | "model";

/** Each kind's table and primary key (besides workspace_id); ROW_KINDS is parents-first (foreign keys). */
export const KIND_TABLES: Record<RowKind, { table: string; key: string[] }> = {
  property_definition: { table: "property_definitions", key: ["id"] },
  element: { table: "elements", key: ["id"] },
  relationship: { table: "relationships", key: ["id"] },
  view: { table: "views", key: ["id"] },
  node: { table: "view_nodes", key: ["id"] },
  connection: { table: "connections", key: ["id"] },
  property_value: { table: "property_values", key: ["owner_kind", "owner_id", "ord"] },
  folder: { table: "folders", key: ["id"] },
};

export const isRowKind = (kind: string): kind is RowKind => kind in KIND_TABLES;

/** The log's key of an object: "kind:object_id". */
export const objectKey = (kind: string, objectId: string) => `${kind}:${objectId}`;

/** The log's object id of a row (migration 0018's ams_change_object_id). */
export const objectIdOf = (kind: string, row: Row): string =>
  kind === "property_value" ? `${row.owner_id}/${row.ord}` : String(row.id);

/** jsonb arrives parsed from postgres.js and as text from some drivers: always an object (or null). */
export function asRow(value: unknown): Row | null {
  if (value === null || value === undefined) return null;
  return (typeof value === "string" ? JSON.parse(value) : value) as Row;
}

const columnCache = new Map<string, string[]>();

/** The table's writable columns (all but workspace_id and revision), read once from the catalog. */
export async function columnsOf(database: Database, table: string, on?: DbOrTx): Promise<string[]> {
  const known = columnCache.get(table);
  if (known) return known;
  const rows = await database.rows<{ column_name: string }>(
    sql`select column_name from information_schema.columns
        where table_schema = current_schema() and table_name = ${table} order by ordinal_position`,
    on,
  );
  const columns = rows.map((r) => r.column_name).filter((c) => c !== "workspace_id" && c !== "revision");
  columnCache.set(table, columns);
  return columns;
}

/** The current rows of the given objects of one kind, by object id (as the log would store them). */
export async function currentRows(
  database: Database,
  ws: string,
  kind: Kind,
  objectIds: readonly string[],
  on?: DbOrTx,
): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  if (objectIds.length === 0) return out;
  const ids = JSON.stringify(objectIds);
  if (kind === "model") {
    const rows = await database.rows<{ model: unknown }>(sql`select model from workspaces where id = ${ws}`, on);
    if (rows[0]) out.set(ws, asRow(rows[0].model) ?? {});
    return out;
  }
  const { table } = KIND_TABLES[kind];
  const match =
    kind === "property_value"
      ? sql`t.owner_id || '/' || t.ord in (select json_array_elements_text(${ids}::json))
            and t.owner_id in (select split_part(json_array_elements_text(${ids}::json), '/', 1))`
      : sql`t.id in (select json_array_elements_text(${ids}::json))`;
  const rows = await database.rows<{ j: unknown }>(
    sql`select to_jsonb(t) - 'workspace_id' - 'revision' as j from ${sql.raw(table)} t
        where t.workspace_id = ${ws} and ${match}`,
    on,
  );
  for (const { j } of rows) {
    const row = asRow(j);
    if (row) out.set(objectIdOf(kind, row), row);
  }
  return out;
}
