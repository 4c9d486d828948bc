import type { Database, DbOrTx } from "@ams/db";
import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { ObjectState } from "./states.ts";
import { columnsOf, isRowKind, KIND_TABLES, ROW_KINDS, type RowKind } from "./tables.ts";

/**
 * Makes the given objects be in the given states, inside the caller's open change group (restore, revert and an
 * object's restore all write through here, so the capture triggers record it like any other change): set-based,
 * one DELETE per table for objects to remove (children first) and one INSERT ... ON CONFLICT DO UPDATE per table
 * for the rows to bring back (parents first; rows within one statement may refer to each other, since foreign keys
 * are checked at its end). Answers how many objects it touched.
 */
export async function applyStates(
  database: Database,
  tx: DbOrTx,
  ws: string,
  states: Iterable<ObjectState>,
): Promise<number> {
  const removals = new Map<RowKind, string[]>();
  const upserts = new Map<RowKind, Record<string, unknown>[]>();
  let model: Record<string, unknown> | null = null;
  let count = 0;
  for (const s of states) {
    count++;
    if (s.kind === "model") model = s.row ?? {};
    else if (!isRowKind(s.kind)) continue;
    else if (s.row) pushTo(upserts, s.kind, s.row);
    else pushTo(removals, s.kind, s.objectId);
  }
  try {
    for (const kind of [...ROW_KINDS].reverse()) {
      const ids = removals.get(kind);
      if (ids?.length) await removeRows(database, tx, ws, kind, ids);
    }
    if (model) {
      await database.rows(sql`update workspaces set model = ${JSON.stringify(model)}::jsonb where id = ${ws}`, tx);
    }
    for (const kind of ROW_KINDS) {
      const rows = upserts.get(kind);
      if (rows?.length) await upsertRows(database, tx, ws, kind, rows);
    }
  } catch (error) {
    throw conflictOf(error) ?? error;
  }
  return count;
}

/** Appends in place (a restore over a large model brings hundreds of thousands of states: no copying per state). */
function pushTo<T>(map: Map<RowKind, T[]>, kind: RowKind, item: T) {
  const list = map.get(kind);
  if (list) list.push(item);
  else map.set(kind, [item]);
}

async function removeRows(database: Database, tx: DbOrTx, ws: string, kind: RowKind, ids: string[]) {
  const list = sql`(select json_array_elements_text(${JSON.stringify(ids)}::json))`;
  const { table } = KIND_TABLES[kind];
  const match = kind === "property_value" ? sql`owner_id || '/' || ord in ${list}` : sql`id in ${list}`;
  await database.rows(sql`delete from ${sql.raw(table)} where workspace_id = ${ws} and ${match}`, tx);
}

async function upsertRows(database: Database, tx: DbOrTx, ws: string, kind: RowKind, rows: Record<string, unknown>[]) {
  const { table, key } = KIND_TABLES[kind];
  const columns = await columnsOf(database, table, tx);
  const list = sql.raw(columns.map((c) => `"${c}"`).join(", "));
  const keyList = sql.raw(["workspace_id", ...key].map((c) => `"${c}"`).join(", "));
  const updates = columns.filter((c) => !key.includes(c));
  const set = sql.raw(updates.map((c) => `"${c}" = excluded."${c}"`).join(", "));
  const json = JSON.stringify(rows.map((r) => ({ ...r, workspace_id: ws })));
  await database.rows(
    sql`insert into ${sql.raw(table)} (workspace_id, ${list})
        select workspace_id, ${list} from jsonb_populate_recordset(null::${sql.raw(table)}, ${json}::jsonb)
        on conflict (${keyList}) do update set ${set}`,
    tx,
  );
}

/** A state that refers to an object no longer there (a view's node whose element was deleted since): 409. */
function conflictOf(error: unknown): AppError | null {
  const e = error as { code?: string; cause?: { code?: string; detail?: string }; detail?: string };
  const code = e.code ?? e.cause?.code;
  if (code !== "23503" && code !== "P0001") return null;
  const detail = e.detail ?? e.cause?.detail ?? "";
  return new AppError(
    "CONFLICT",
    `That state refers to objects that no longer exist${detail ? ` (${detail})` : ""}: restore them first`,
  );
}
