import type { Database, DbOrTx } from "@ams/db";
import { AppError, type ElementType, invalid, isRelationshipAllowed, type RelationshipType } from "@ams/shared";
import { sql } from "drizzle-orm";
import { deleteAttachedRelationships, deleteDanglingConnections, deleteFolderItems } from "../cascade.ts";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { expectElement, parseElementType } from "../elements/internal.ts";
import { withClosedChange } from "../history/change.ts";
import { loadDefinitions } from "../properties/definitions.ts";
import {
  deleteProperties,
  type PropertyCell,
  resolvePropertyChanges,
  writePropertyCells,
} from "../properties/values.ts";
import { expectRelationship, parseRelationshipType } from "../relationships/internal.ts";
import { anyOf, idList } from "../sql.ts";
import { withArticle } from "../words.ts";
import type { BulkEditInput, BulkEditResult, BulkRow } from "./schemas.ts";

type Kind = "element" | "relationship";
const TABLE = { element: "elements", relationship: "relationships" } as const;
const NOUN = { element: ["element", "elements"], relationship: ["relationship", "relationships"] } as const;

/** A row after its input was checked: the stored texts of its fields (undefined: unchanged). */
type PlannedRow = {
  id: string;
  name?: string;
  type?: string;
  documentation?: string | null;
  properties?: Map<string, string | null>;
};

const count = (n: number, kind: Kind) => `${n.toLocaleString("en")} ${NOUN[kind][n === 1 ? 0 : 1]}`;

/**
 * One bulk edit from the table view as ONE change group (one history entry, one revert): the same change on many
 * rows (`ids` + `set`: a type, documentation, property values), their deletion (`ids` + `delete`), or a value per
 * row (`rows`: a pasted block, an edited cell). Every input is checked before anything is written, and a type change
 * is refused naming the first relationship it would make invalid under ArchiMate 3.1. Set-based statements
 * whatever the number of rows; the capture triggers record every changed object in the group.
 */
export async function bulkEdit({ ctx, input }: Verb<BulkEditInput>): Promise<BulkEditResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const kind: Kind = input.kind ?? "element";
  const { database } = ctx;
  const ids = input.rows ? input.rows.map((r) => r.id) : (input.ids ?? []);
  if (ids.length === 0) throw invalid("ids", "name at least one row");
  const unique = [...new Set(ids)];
  if (input.rows && unique.length !== ids.length) {
    const seen = new Set<string>();
    const twice = ids.find((id) => seen.size === seen.add(id).size);
    throw invalid("rows", `row '${twice}' is named twice`);
  }

  const { out, closed } = await withClosedChange(
    ctx,
    { summary: `Bulk edit of ${count(unique.length, kind)}` },
    async (tx, change) => {
      const current = await database.rows<{ id: string; type: string; name: string | null; revision: string | number }>(
        sql`select id, type, name, revision from ${sql.raw(TABLE[kind])}
          where workspace_id = ${ws} and id = ${anyOf(unique)}`,
        tx,
      );
      const byId = new Map(current.map((r) => [r.id, r]));
      const missing = unique.filter((id) => !byId.has(id));
      if (missing.length > 0) {
        const shown = missing
          .slice(0, 5)
          .map((id) => `'${id}'`)
          .join(", ");
        const more = missing.length > 5 ? ` and ${missing.length - 5} more` : "";
        throw new AppError(
          "NOT_FOUND",
          `${count(missing.length, kind)} not found in this workspace: ${shown}${more}; nothing was changed`,
        );
      }
      for (const [id, expected] of Object.entries(input.expected_revisions ?? {})) {
        const row = byId.get(id);
        if (!row || Number(row.revision) === expected) continue;
        if (kind === "element") await expectElement(database, tx, ws, id, expected);
        else await expectRelationship(database, tx, ws, id, expected);
      }
      const one = unique.length === 1 ? byId.get(unique[0] as string) : undefined;
      const oneName = one ? `${one.type} '${one.name || one.id}'` : "";

      if (input.delete) {
        change.summary = one ? `Deleted ${oneName}` : `Deleted ${count(unique.length, kind)}`;
        await deleteRows(database, tx, ws, kind, unique);
        return unique.length;
      }

      const planned = await planRows(database, tx, ws, kind, input);
      await assertTypesFit(database, tx, ws, kind, planned);
      change.summary = summaryOf(input, kind, unique.length, oneName);
      const touched = await updateFields(database, tx, ws, kind, planned);
      const cells: PropertyCell[] = [];
      for (const row of planned) {
        for (const [definition, value] of row.properties ?? []) cells.push({ owner: row.id, definition, value });
      }
      const propsChanged = await writePropertyCells(database, tx, ws, kind, cells);
      const moved = [...propsChanged].filter((id) => !touched.has(id));
      if (moved.length > 0) {
        // A change of its property values is a change of the owner: its revision becomes the group's.
        await database.rows(
          sql`update ${sql.raw(TABLE[kind])} set revision = nullif(current_setting('ams.revision', true), '')::bigint
            where workspace_id = ${ws} and id = ${anyOf(moved)}`,
          tx,
        );
      }
      return new Set([...touched, ...propsChanged]).size;
    },
  );
  return { ...closed, rows: closed.objects === 0 ? 0 : out };
}

function summaryOf(input: BulkEditInput, kind: Kind, n: number, oneName: string): string {
  const what = oneName || count(n, kind);
  if (input.rows) return n === 1 ? `Edited ${oneName} in the table` : `Pasted values into ${what}`;
  const set = input.set ?? {};
  const parts: string[] = [];
  if (set.type) parts.push(`changed the type of ${what} to ${set.type}`);
  const names = Object.keys(set.properties ?? {});
  if (names.length > 0) parts.push(`set ${names.slice(0, 5).join(", ")}${names.length > 5 ? "…" : ""} on ${what}`);
  if (set.documentation !== undefined) parts.push(`set the documentation of ${what}`);
  const text = parts.join("; ") || `edited ${what}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Checks every row's input (types, property values) before anything is written; errors name the row's field. */
async function planRows(database: Database, tx: DbOrTx, ws: string, kind: Kind, input: BulkEditInput) {
  const defs = await loadDefinitions(database, ws, tx);
  const parseType = (t: string, path: string) =>
    kind === "element" ? parseElementType(t, path) : parseRelationshipType(t, path);
  if (input.set) {
    const set = input.set;
    const type = set.type !== undefined ? parseType(set.type, "set.type") : undefined;
    const properties = set.properties ? resolvePropertyChanges(defs, set.properties, "set.properties") : undefined;
    return [...new Set(input.ids ?? [])].map(
      (id): PlannedRow => ({ id, type, documentation: set.documentation, properties }),
    );
  }
  return (input.rows ?? []).map((row: BulkRow, i): PlannedRow => {
    if (kind === "element" && row.name !== undefined && row.name.trim() === "")
      throw invalid(`rows[${i}].name`, `element '${row.id}' needs a name`);
    return {
      id: row.id,
      name: row.name,
      type: row.type !== undefined ? parseType(row.type, `rows[${i}].type`) : undefined,
      documentation: row.documentation,
      properties: row.properties ? resolvePropertyChanges(defs, row.properties, `rows[${i}].properties`) : undefined,
    };
  });
}

/**
 * A new type must keep every relationship valid under the ArchiMate 3.1 table: for elements, each relationship
 * touching a retyped element (its other end retyped too when it is in the edit); for relationships, its own ends.
 * The first that would not be valid is named, and nothing is written.
 */
async function assertTypesFit(database: Database, tx: DbOrTx, ws: string, kind: Kind, rows: PlannedRow[]) {
  const newType = new Map<string, string>();
  for (const r of rows) if (r.type !== undefined) newType.set(r.id, r.type);
  if (newType.size === 0) return;
  const retyped = [...newType.keys()];
  const ends = await database.rows<{
    id: string;
    type: RelationshipType;
    source: string;
    target: string;
    st: string | null;
    tt: string | null;
    sn: string | null;
    tn: string | null;
  }>(
    sql`select r.id, r.type, r.source_id as source, r.target_id as target,
          coalesce(se.type, case when sr.id is not null then 'Relationship' end) as st,
          coalesce(te.type, case when tr.id is not null then 'Relationship' end) as tt,
          coalesce(se.name, sr.name, r.source_id) as sn, coalesce(te.name, tr.name, r.target_id) as tn
        from relationships r
        left join elements se on se.workspace_id = r.workspace_id and se.id = r.source_id
        left join relationships sr on sr.workspace_id = r.workspace_id and sr.id = r.source_id
        left join elements te on te.workspace_id = r.workspace_id and te.id = r.target_id
        left join relationships tr on tr.workspace_id = r.workspace_id and tr.id = r.target_id
        where r.workspace_id = ${ws} and ${
          kind === "element"
            ? sql`(r.source_id = ${anyOf(retyped)} or r.target_id = ${anyOf(retyped)})`
            : sql`r.id = ${anyOf(retyped)}`
        }`,
    tx,
  );
  for (const r of ends) {
    const type = (kind === "relationship" ? newType.get(r.id) : r.type) as RelationshipType;
    const s = ((kind === "element" && newType.get(r.source)) || r.st) as ElementType | "Relationship";
    const t = ((kind === "element" && newType.get(r.target)) || r.tt) as ElementType | "Relationship";
    if (isRelationshipAllowed(type, s, t)) continue;
    const why =
      kind === "element"
        ? `changing the type would make relationship '${r.id}' (${type} from ${s} '${r.sn}' to ${t} '${r.tn}') invalid under ArchiMate 3.1`
        : `ArchiMate 3.1 does not allow ${withArticle(type)} relationship from ${s} '${r.sn}' to ${t} '${r.tn}' (relationship '${r.id}')`;
    throw new AppError("VALIDATION", `type: ${why}; nothing was changed`, {
      errors: [{ path: "type", message: `relationship '${r.id}' would be invalid` }],
    });
  }
}

/** Name, type and documentation of every row in one statement; answers the rows that changed. */
async function updateFields(database: Database, tx: DbOrTx, ws: string, kind: Kind, rows: PlannedRow[]) {
  const fields = rows.filter((r) => r.name !== undefined || r.type !== undefined || r.documentation !== undefined);
  if (fields.length === 0) return new Set<string>();
  const json = JSON.stringify(
    fields.map((r) => ({
      id: r.id,
      n: r.name ?? null,
      t: r.type ?? null,
      hd: r.documentation !== undefined,
      d: r.documentation ?? null,
    })),
  );
  const relationship = kind === "relationship";
  const attributes = relationship
    ? sql`, access_type = case when coalesce(r.t, e.type) = 'Access' then e.access_type end,
          is_directed = case when coalesce(r.t, e.type) = 'Association' then e.is_directed end,
          influence_strength = case when coalesce(r.t, e.type) = 'Influence' then e.influence_strength end`
    : sql``;
  const changed = await database.rows<{ id: string }>(
    sql`update ${sql.raw(TABLE[kind])} e set
          name = coalesce(r.n, e.name),
          type = coalesce(r.t, e.type),
          documentation = case when r.hd then r.d else e.documentation end,
          i18n = nullif(coalesce(e.i18n, '{}'::jsonb)
            - array_remove(array[case when r.n is not null then 'name' end, case when r.hd then 'documentation' end], null),
            '{}'::jsonb)
          ${attributes}
        from json_to_recordset(${json}::json) as r(id text, n text, t text, hd boolean, d text)
        where e.workspace_id = ${ws} and e.id = r.id
          and (r.n is not null and r.n is distinct from e.name
            or r.t is not null and r.t <> e.type
            or r.hd and r.d is distinct from e.documentation)
        returning e.id`,
    tx,
  );
  return new Set(changed.map((r) => r.id));
}

/** Deletes the rows with what hangs on them (relationships, property values, folder entries, connections). */
async function deleteRows(database: Database, tx: DbOrTx, ws: string, kind: Kind, ids: string[]) {
  // The rows were read in this group, which holds the workspace's lock: they are all still there.
  await database.rows(sql`delete from ${sql.raw(TABLE[kind])} where workspace_id = ${ws} and id in ${idList(ids)}`, tx);
  await deleteAttachedRelationships(database, tx, ws, ids);
  await deleteProperties(database, tx, ws, kind, ids);
  await deleteFolderItems(database, tx, ws, ids);
  await deleteDanglingConnections(database, tx, ws);
}
