import type { Database, DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";
import type { ModelDocument } from "../exchange/document.ts";
import { openChangeOf, recordChange, SYSTEM_ACTOR } from "../history/change.ts";
import { ensureSystemDefinitions } from "../properties/definitions.ts";

/** Rows per statement: keeps each JSON parameter to a few megabytes. */
const CHUNK = 20_000;

type Table = {
  name: string;
  /** column name -> row field */
  columns: Record<string, string>;
  json?: string[];
};

/** Document collection -> table and its column -> row field mapping (also the bench's COPY floor). */
export const MODEL_TABLES = {
  propertyDefinitions: {
    name: "property_definitions",
    columns: { id: "id", ord: "ord", name: "name", type: "type", is_system: "isSystem", i18n: "i18n" },
  },
  elements: {
    name: "elements",
    columns: { id: "id", ord: "ord", type: "type", name: "name", documentation: "documentation", i18n: "i18n" },
  },
  relationships: {
    name: "relationships",
    columns: {
      id: "id",
      ord: "ord",
      type: "type",
      source_id: "sourceId",
      target_id: "targetId",
      name: "name",
      documentation: "documentation",
      is_directed: "isDirected",
      access_type: "accessType",
      influence_strength: "influenceStrength",
      i18n: "i18n",
    },
  },
  views: {
    name: "views",
    columns: {
      id: "id",
      ord: "ord",
      name: "name",
      viewpoint: "viewpoint",
      documentation: "documentation",
      i18n: "i18n",
    },
  },
  nodes: {
    name: "view_nodes",
    columns: {
      id: "id",
      view_id: "viewId",
      parent_id: "parentId",
      ord: "ord",
      kind: "kind",
      element_id: "elementId",
      x: "x",
      y: "y",
      w: "w",
      h: "h",
      label: "label",
      documentation: "documentation",
      i18n: "i18n",
      style: "style",
    },
  },
  connections: {
    name: "connections",
    columns: {
      id: "id",
      view_id: "viewId",
      ord: "ord",
      kind: "kind",
      relationship_id: "relationshipId",
      source_id: "sourceId",
      target_id: "targetId",
      bendpoints: "bendpoints",
      label: "label",
      documentation: "documentation",
      i18n: "i18n",
      style: "style",
    },
  },
  properties: {
    name: "property_values",
    columns: {
      owner_kind: "ownerKind",
      owner_id: "ownerId",
      ord: "ord",
      definition_id: "definitionId",
      value: "value",
      i18n: "i18n",
    },
  },
  folders: {
    name: "folders",
    columns: {
      id: "id",
      parent_id: "parentId",
      ord: "ord",
      identifier: "identifier",
      label: "label",
      documentation: "documentation",
      ref_id: "refId",
      i18n: "i18n",
    },
  },
} satisfies Record<Exclude<keyof ModelDocument, "model">, Table>;

/** Insertion order respects the foreign keys: definitions before values, elements before nodes, parents before children. */
export const MODEL_TABLE_ORDER = [
  "propertyDefinitions",
  "elements",
  "relationships",
  "views",
  "nodes",
  "connections",
  "properties",
  "folders",
] as const;

/**
 * One set-based INSERT per table (per chunk): the rows travel as a single JSON parameter and
 * json_populate_recordset turns them into a relation, so the cost is one statement, not one per row.
 */
async function insertRows(database: Database, tx: DbOrTx, ws: string, table: Table, rows: readonly object[]) {
  const cols = Object.keys(table.columns);
  const pairs = Object.entries(table.columns);
  const columnList = sql.raw(cols.map((c) => `"${c}"`).join(", "));
  for (let start = 0; start < rows.length; start += CHUNK) {
    const parts: string[] = [];
    const end = Math.min(rows.length, start + CHUNK);
    for (let i = start; i < end; i++) {
      const row = rows[i] as Record<string, unknown>;
      const out: Record<string, unknown> = { workspace_id: ws };
      for (const [col, field] of pairs) {
        const v = row[field];
        if (v !== undefined && v !== null) out[col] = v;
      }
      parts.push(JSON.stringify(out));
    }
    await database.rows(
      sql`insert into ${sql.raw(table.name)} (workspace_id, ${columnList})
          select workspace_id, ${columnList} from json_populate_recordset(null::${sql.raw(table.name)}, ${`[${parts.join(",")}]`}::json)`,
      tx,
    );
  }
}

/**
 * Replaces the workspace's whole model by the document, inside the caller's transaction and its open change group
 * (an import's); without one (tests, benches, seeding) it records the replacement as a system change of its own.
 */
export async function replaceModel(database: Database, tx: DbOrTx, ws: string, doc: ModelDocument): Promise<void> {
  const open = await openChangeOf(database, tx);
  if (open?.workspaceId === ws) return replaceModelInGroup(database, tx, ws, doc);
  return recordChange(database, tx, ws, SYSTEM_ACTOR, "Replaced the model", (t) =>
    replaceModelInGroup(database, t, ws, doc),
  );
}

async function replaceModelInGroup(database: Database, tx: DbOrTx, ws: string, doc: ModelDocument) {
  // Foreign-key checks run as plans cached per connection. One cached while the referenced table was tiny (a fresh
  // deployment, a test database) is a sequential scan, and a pooled connection would reuse it for every row of a
  // large import: 100k connections x 200k relationships. Dropping the cached plans makes the checks of this bulk
  // write plan against the tables as they are now (index lookups); they are re-planned once, not per row.
  await database.rows(sql`discard plans`, tx);
  // Children first where foreign keys would otherwise cascade row by row.
  for (const table of [
    "property_values",
    "folders",
    "connections",
    "view_nodes",
    "views",
    "relationships",
    "elements",
    "property_definitions",
  ]) {
    await database.rows(sql`delete from ${sql.raw(table)} where workspace_id = ${ws}`, tx);
  }
  await database.rows(
    sql`update workspaces set model = ${JSON.stringify(doc.model)}::jsonb, updated_at = now() where id = ${ws}`,
    tx,
  );
  // Every endpoint a relationship names is inserted by this transaction: the endpoint trigger may skip locking them
  // (nobody else can see them yet) and only checks that they exist (migration 0006).
  await database.rows(sql`select set_config('ams.endpoints_inserted_here', 'on', true)`, tx);
  // Nested nodes reference their parent: parents must be inserted first, which document order (depth-first) gives.
  for (const key of MODEL_TABLE_ORDER) {
    const rows = key === "relationships" ? referencedFirst(doc.relationships) : doc[key];
    await insertRows(database, tx, ws, MODEL_TABLES[key], rows);
  }
  await database.rows(sql`select set_config('ams.endpoints_inserted_here', 'off', true)`, tx);
  await ensureSystemDefinitions(database, ws, tx);
}

/**
 * Relationships in an order where one attached to another relationship comes after it: rows go in per chunk, and the
 * database checks each chunk's endpoints when it is inserted. Their model order is the `ord` column, not this one.
 */
function referencedFirst<R extends { id: string; sourceId: string; targetId: string }>(
  rows: readonly R[],
): readonly R[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (!rows.some((r) => byId.has(r.sourceId) || byId.has(r.targetId))) return rows;
  const depth = new Map<string, number>();
  const depthOf = (r: R, seen: Set<string>): number => {
    const known = depth.get(r.id);
    if (known !== undefined) return known;
    if (seen.has(r.id)) return 0; // a cycle: the database refuses it unless it sits in one chunk
    seen.add(r.id);
    let d = 0;
    for (const end of [r.sourceId, r.targetId]) {
      const other = byId.get(end);
      if (other) d = Math.max(d, depthOf(other, seen) + 1);
    }
    depth.set(r.id, d);
    return d;
  };
  return rows
    .map((r, i) => ({ r, i, d: depthOf(r, new Set()) }))
    .sort((a, b) => a.d - b.d || a.i - b.i)
    .map((x) => x.r);
}
