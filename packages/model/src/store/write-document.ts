import type { Database, DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";
import type { ModelDocument } from "../exchange/document.ts";
import { openChangeOf, recordChange, SYSTEM_ACTOR } from "../history/change.ts";
import { ensureSystemDefinitions } from "../properties/definitions.ts";
import {
  alignDocument,
  type PlacedRow,
  type PresentFolder,
  type PresentRows,
  type PresentSystemDefinition,
  withSystemDefinition,
} from "./align-document.ts";

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

export type ModelTableKey = (typeof MODEL_TABLE_ORDER)[number];

/** Rows of one table an import added, changed and removed. */
export type RowChanges = { added: number; changed: number; removed: number };

/** What replacing a workspace's model did, per table, and whether the model's own data (name, metadata) changed. */
export type ModelChanges = Record<ModelTableKey, RowChanges> & { model: boolean };

/** Each table's key besides workspace_id: a property value is keyed by its owner and its position. */
const KEYS: Record<ModelTableKey, readonly string[]> = {
  propertyDefinitions: ["id"],
  elements: ["id"],
  relationships: ["id"],
  views: ["id"],
  nodes: ["id"],
  connections: ["id"],
  properties: ["owner_kind", "owner_id", "ord"],
  folders: ["id"],
};

/** Columns the document does not carry: an import leaves them empty, as a fresh insert does. */
const CLEARED: Partial<Record<ModelTableKey, readonly string[]>> = { propertyDefinitions: ["allowed_values"] };

/** Rows start..end as the JSON array json_populate_recordset reads (null fields left out). */
function rowsJson(ws: string, table: Table, rows: readonly object[], start: number, end: number): string {
  const pairs = Object.entries(table.columns);
  const parts: string[] = [];
  for (let i = start; i < end; i++) {
    const row = rows[i] as Record<string, unknown>;
    const out: Record<string, unknown> = { workspace_id: ws };
    for (const [col, field] of pairs) {
      const v = row[field];
      if (v !== undefined && v !== null) out[col] = v;
    }
    parts.push(JSON.stringify(out));
  }
  return `[${parts.join(",")}]`;
}

const quoted = (columns: readonly string[], prefix = "") => columns.map((c) => `${prefix}"${c}"`).join(", ");

/**
 * One set-based INSERT per table (per chunk): the rows travel as a single JSON parameter and
 * json_populate_recordset turns them into a relation, so the cost is one statement, not one per row.
 */
async function insertRows(database: Database, tx: DbOrTx, ws: string, table: Table, rows: readonly object[]) {
  const columnList = sql.raw(quoted(Object.keys(table.columns)));
  for (let start = 0; start < rows.length; start += CHUNK) {
    const json = rowsJson(ws, table, rows, start, Math.min(rows.length, start + CHUNK));
    await database.rows(
      sql`insert into ${sql.raw(table.name)} (workspace_id, ${columnList})
          select workspace_id, ${columnList} from json_populate_recordset(null::${sql.raw(table.name)}, ${json}::json)`,
      tx,
    );
  }
}

/**
 * The file's rows written over a table that already holds some, one statement per chunk: a row whose key is there is
 * updated only where a column differs (IS DISTINCT FROM: an equal row is not written, so the log records nothing for
 * it), a row whose key is not there is inserted. Rows the file no longer has go afterwards (deleteMissing).
 */
async function mergeRows(
  database: Database,
  tx: DbOrTx,
  ws: string,
  key: ModelTableKey,
  rows: readonly object[],
): Promise<{ added: number; changed: number }> {
  const table: Table = MODEL_TABLES[key];
  const keys = KEYS[key];
  const columns = Object.keys(table.columns);
  const values = columns.filter((c) => !keys.includes(c));
  const cleared = CLEARED[key] ?? [];
  const name = sql.raw(table.name);
  const match = keys.map((c) => `t."${c}" = i."${c}"`).join(" and ");
  const set = sql.raw([...values.map((c) => `"${c}" = i."${c}"`), ...cleared.map((c) => `"${c}" = null`)].join(", "));
  const differs = sql.raw(
    [`row(${quoted(values, "t.")}) is distinct from row(${quoted(values, "i.")})`]
      .concat(cleared.map((c) => `t."${c}" is not null`))
      .join(" or "),
  );
  const columnList = sql.raw(quoted(columns));
  const matched = sql.raw(match);
  let added = 0;
  let changed = 0;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const json = rowsJson(ws, table, rows, start, Math.min(rows.length, start + CHUNK));
    const [counts] = await database.rows<{ added: number; changed: number }>(
      sql`with i as materialized (select * from json_populate_recordset(null::${name}, ${json}::json)),
          u as (
            update ${name} t set ${set} from i
            where t.workspace_id = ${ws} and ${matched} and (${differs})
            returning 1),
          n as (
            insert into ${name} (workspace_id, ${columnList})
            select i.workspace_id, ${columnList} from i
            where not exists (select 1 from ${name} t where t.workspace_id = ${ws} and ${matched})
            returning 1)
          select (select count(*) from n)::int as added, (select count(*) from u)::int as changed`,
      tx,
    );
    added += Number(counts?.added ?? 0);
    changed += Number(counts?.changed ?? 0);
  }
  return { added, changed };
}

/** Deletes the table's rows of the workspace whose key the file does not have; answers how many. */
async function deleteMissing(database: Database, tx: DbOrTx, ws: string, key: ModelTableKey, rows: readonly object[]) {
  const table = MODEL_TABLES[key];
  const name = sql.raw(table.name);
  let query: ReturnType<typeof sql>;
  if (key === "properties") {
    const kept = JSON.stringify(
      (rows as ModelDocument["properties"]).map((r) => [r.ownerKind, r.ownerId, r.ord] as const),
    );
    query = sql`delete from ${name} t where t.workspace_id = ${ws} and not exists (
                  select 1 from json_array_elements(${kept}::json) k
                  where k->>0 = t.owner_kind and k->>1 = t.owner_id and (k->>2)::int = t.ord)`;
  } else {
    const kept = JSON.stringify((rows as { id: string | number }[]).map((r) => r.id));
    const cast = sql.raw(key === "folders" ? "::int" : "");
    query = sql`delete from ${name} t where t.workspace_id = ${ws} and not exists (
                  select 1 from json_array_elements_text(${kept}::json) k(v) where k.v${cast} = t.id)`;
  }
  const [row] = await database.rows<{ removed: number }>(
    sql`with d as (${query} returning 1) select count(*)::int as removed from d`,
    tx,
  );
  return Number(row?.removed ?? 0);
}

/**
 * Replaces the workspace's whole model by the document, inside the caller's transaction and its open change group
 * (an import's); without one (tests, benches, seeding) it records the replacement as a system change of its own.
 * Only what differs is written (see replaceModelInGroup); answers what changed.
 */
export async function replaceModel(
  database: Database,
  tx: DbOrTx,
  ws: string,
  doc: ModelDocument,
): Promise<ModelChanges> {
  const open = await openChangeOf(database, tx);
  if (open?.workspaceId === ws) return replaceModelInGroup(database, tx, ws, doc);
  return recordChange(database, tx, ws, SYSTEM_ACTOR, "Replaced the model", (t) =>
    replaceModelInGroup(database, t, ws, doc),
  );
}

/**
 * Makes the workspace hold the document's model, writing only the differences: a table the workspace has no rows in
 * gets the file's rows inserted as they are (an import into a new workspace, as fast as a plain insert); a table with
 * rows is merged (mergeRows: rows matched by key, updated only where a column differs, new ones inserted), parents
 * before children, and the rows the file no longer has are deleted afterwards, children before parents (so a kept
 * row moved off an object, such as a relationship whose source the file changed, is moved before that object goes,
 * and no delete cascades into a row the file keeps). Re-importing the same file writes nothing, so the change log
 * records nothing; a file with a dozen changes records a dozen entries.
 */
async function replaceModelInGroup(database: Database, tx: DbOrTx, ws: string, doc: ModelDocument) {
  // Foreign-key checks run as plans cached per connection. One cached while the referenced table was tiny (a fresh
  // deployment, a test database) is a sequential scan, and a pooled connection would reuse it for every row of a
  // large import: 100k connections x 200k relationships. Dropping the cached plans makes the checks of this bulk
  // write plan against the tables as they are now (index lookups); they are re-planned once, not per row.
  await database.rows(sql`discard plans`, tx);
  const { present, merging } = await presentTables(database, tx, ws);
  // A workspace holding nothing but its system definition (a new one) takes the file as it is, the definition going
  // after the file's as before (ensureSystemDefinitions below).
  if (!merging && present.has("propertyDefinitions")) {
    await database.rows(sql`delete from property_definitions where workspace_id = ${ws}`, tx);
    present.delete("propertyDefinitions");
  }
  const incoming = merging
    ? alignDocument(doc, await presentRows(database, tx, ws, present))
    : { ...doc, propertyDefinitions: withSystemDefinition(doc.propertyDefinitions, null) };
  const modelJson = JSON.stringify(doc.model);
  const model = await database.rows(
    sql`update workspaces set model = ${modelJson}::jsonb, updated_at = now()
        where id = ${ws} and model is distinct from ${modelJson}::jsonb returning 1`,
    tx,
  );
  const changes = { model: model.length > 0 } as ModelChanges;
  // Every endpoint a relationship names is either inserted by this transaction or already in the workspace, whose
  // row this transaction has locked (the change group's open): no other transaction can delete one before this
  // commits, so the endpoint trigger may skip locking them and only checks that they exist (migration 0006).
  await database.rows(sql`select set_config('ams.endpoints_inserted_here', 'on', true)`, tx);
  // Nested nodes reference their parent: parents must be written first, which document order (depth-first) gives.
  for (const key of MODEL_TABLE_ORDER) {
    const rows = key === "relationships" ? referencedFirst(incoming.relationships) : incoming[key];
    if (present.has(key)) {
      changes[key] = { ...(await mergeRows(database, tx, ws, key, rows)), removed: 0 };
    } else {
      await insertRows(database, tx, ws, MODEL_TABLES[key], rows);
      changes[key] = { added: rows.length, changed: 0, removed: 0 };
    }
  }
  for (const key of [...MODEL_TABLE_ORDER].reverse()) {
    if (present.has(key)) changes[key].removed = await deleteMissing(database, tx, ws, key, incoming[key]);
  }
  await database.rows(sql`select set_config('ams.endpoints_inserted_here', 'off', true)`, tx);
  await ensureSystemDefinitions(database, ws, tx);
  return changes;
}

/**
 * The tables the workspace has rows in, and whether it holds a model to merge with: a row of any table but its system
 * property definition.
 */
async function presentTables(
  database: Database,
  tx: DbOrTx,
  ws: string,
): Promise<{ present: Set<ModelTableKey>; merging: boolean }> {
  const probes = MODEL_TABLE_ORDER.map(
    (key) =>
      sql`exists (select 1 from ${sql.raw(MODEL_TABLES[key].name)} where workspace_id = ${ws}) as ${sql.raw(`"${key}"`)}`,
  );
  const [row] = await database.rows<Record<ModelTableKey | "ownDefinitions", boolean>>(
    sql`select ${sql.join(probes, sql`, `)},
          exists (select 1 from property_definitions where workspace_id = ${ws} and not is_system) as "ownDefinitions"`,
    tx,
  );
  const present = new Set(MODEL_TABLE_ORDER.filter((key) => row?.[key]));
  const merging = Boolean(row?.ownDefinitions) || [...present].some((key) => key !== "propertyDefinitions");
  return { present, merging };
}

/** What alignDocument needs of the rows already there (only of tables that have rows). */
async function presentRows(
  database: Database,
  tx: DbOrTx,
  ws: string,
  present: Set<ModelTableKey>,
): Promise<PresentRows> {
  const none = Promise.resolve([]);
  const placed = (key: "elements" | "relationships" | "views" | "propertyDefinitions") =>
    present.has(key)
      ? database.rows<PlacedRow<string>>(
          sql`select id, null as scope, ord from ${sql.raw(MODEL_TABLES[key].name)} where workspace_id = ${ws}`,
          tx,
        )
      : none;
  const [elements, relationships, views, propertyDefinitions, nodes, connections, folders, system] = await Promise.all([
    placed("elements"),
    placed("relationships"),
    placed("views"),
    placed("propertyDefinitions"),
    present.has("nodes")
      ? database.rows<PlacedRow<string>>(
          sql`select id, view_id as scope, ord from view_nodes where workspace_id = ${ws}`,
          tx,
        )
      : none,
    present.has("connections")
      ? database.rows<PlacedRow<string>>(
          sql`select id, view_id as scope, ord from connections where workspace_id = ${ws}`,
          tx,
        )
      : none,
    present.has("folders")
      ? database.rows<PresentFolder>(
          sql`select id, parent_id, ord, identifier, label, ref_id from folders where workspace_id = ${ws}`,
          tx,
        )
      : none,
    present.has("propertyDefinitions")
      ? database.rows<PresentSystemDefinition>(
          sql`select id, name, type, i18n from property_definitions where workspace_id = ${ws} and is_system
              order by ord limit 1`,
          tx,
        )
      : none,
  ]);
  return {
    elements: elements as PlacedRow<string>[],
    relationships: relationships as PlacedRow<string>[],
    views: views as PlacedRow<string>[],
    propertyDefinitions: propertyDefinitions as PlacedRow<string>[],
    nodes: nodes as PlacedRow<string>[],
    connections: connections as PlacedRow<string>[],
    folders: folders as PresentFolder[],
    systemDefinition: (system as PresentSystemDefinition[])[0] ?? null,
  };
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
