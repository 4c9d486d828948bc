import type { Database, DbOrTx } from "@ams/db";
import {
  AppError,
  type FieldError,
  isElementType,
  isRelationshipAllowed,
  type RelationshipType,
  resolveRelationshipType,
} from "@ams/shared";
import { sql } from "drizzle-orm";
import type { ObjectState } from "../history/states.ts";
import { asRow, currentRows, type Kind, objectKey, type Row } from "../history/tables.ts";
import type { DraftConflict, Resolution } from "./schemas.ts";

/** One object either side touched since the fork: its row at the fork (o) and now in the draft (d) / the base (c). */
type Touched = { kind: Kind; id: string; o: Row | null };

type Ref = { field: string; kinds: Kind[]; id: string };

/** What a row refers to (the other objects the merged model must still hold). */
function refsOf(kind: Kind, row: Row): Ref[] {
  const out: Ref[] = [];
  const add = (field: string, kinds: Kind[]) => {
    const v = row[field];
    if (v !== null && v !== undefined && v !== "") out.push({ field, kinds, id: String(v) });
  };
  if (kind === "relationship") {
    add("source_id", ["element", "relationship"]);
    add("target_id", ["element", "relationship"]);
  } else if (kind === "node") {
    add("view_id", ["view"]);
    add("element_id", ["element"]);
    add("parent_id", ["node"]);
  } else if (kind === "connection") {
    add("view_id", ["view"]);
    add("relationship_id", ["relationship"]);
    add("source_id", ["node", "connection"]);
    add("target_id", ["node", "connection"]);
  } else if (kind === "property_value") {
    add("definition_id", ["property_definition"]);
    if (row.owner_kind !== "model") add("owner_id", [String(row.owner_kind) as Kind]);
  } else if (kind === "folder") {
    add("parent_id", ["folder"]);
    add("ref_id", ["element", "relationship", "view"]);
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const nameOf = (...rows: (Row | null | undefined)[]) => {
  for (const r of rows) {
    const n = r?.name ?? r?.label;
    if (typeof n === "string" && n !== "") return n;
  }
  return null;
};
const show = (v: unknown) => (v === null || v === undefined ? "(none)" : JSON.stringify(v));
const WORD: Partial<Record<Kind, string>> = { property_value: "property value", property_definition: "property" };
const word = (kind: Kind) => WORD[kind] ?? kind;

/** The objects a workspace's log shows touched after `revision`, with their state then (the model's key: "model"). */
async function touchedAfter(database: Database, tx: DbOrTx, ws: string, revision: number) {
  const rows = await database.rows<{ kind: Kind; object_id: string; before: unknown }>(
    sql`select distinct on (kind, object_id) kind, object_id, before from change_entries
        where workspace_id = ${ws} and revision > ${revision}
        order by kind, object_id, revision, seq`,
    tx,
  );
  const out = new Map<string, Touched>();
  for (const r of rows) {
    const id = r.kind === "model" ? "" : r.object_id;
    out.set(objectKey(r.kind, id), { kind: r.kind, id, o: asRow(r.before) });
  }
  return out;
}

/** Current rows of the given objects of a workspace, by key (one read per kind). */
async function rowsNow(database: Database, tx: DbOrTx, ws: string, keys: Iterable<Touched>) {
  const byKind = new Map<Kind, string[]>();
  for (const t of keys) {
    const list = byKind.get(t.kind);
    if (list) list.push(t.kind === "model" ? ws : t.id);
    else byKind.set(t.kind, [t.kind === "model" ? ws : t.id]);
  }
  const out = new Map<string, Row>();
  for (const [kind, ids] of byKind) {
    for (const [id, row] of await currentRows(database, ws, kind, ids, tx)) {
      out.set(objectKey(kind, kind === "model" ? "" : id), row);
    }
  }
  return out;
}

export type MergePlan = {
  /** The states to write into the base (its next change group). */
  states: ObjectState[];
  conflicts: DraftConflict[];
  /** Resolution keys that name no conflict, or resolutions that do not fit theirs: 422. */
  invalid: FieldError[];
};

/**
 * The three-way merge of a draft into its base: the state at the fork (each side's log gives it for what it
 * touched), the draft now and the base now. What only the draft changed is taken; what both changed merges field by
 * field (different fields: both kept); the same field changed to different values, an object deleted on one side and
 * changed on the other, an object the draft refers to that the base deleted, or one the draft deleted that the base's
 * newer objects refer to, is a conflict until `resolutions` chooses. Read in the caller's transaction: the merge runs
 * it under the base's row lock, so every write of the base that committed before is in `current`.
 */
export async function planMerge(
  database: Database,
  tx: DbOrTx,
  draftId: string,
  baseId: string,
  baseRevision: number,
  resolutions: Record<string, Resolution> = {},
): Promise<MergePlan> {
  const inDraft = await touchedAfter(database, tx, draftId, 0);
  const inBase = await touchedAfter(database, tx, baseId, baseRevision);
  const draftNow = await rowsNow(database, tx, draftId, inDraft.values());
  const baseKeys = new Map(inBase);
  for (const [k, t] of inDraft) if (!baseKeys.has(k)) baseKeys.set(k, t);
  const baseNow = await rowsNow(database, tx, baseId, baseKeys.values());

  const result = new Map<string, { kind: Kind; id: string; row: Row | null }>();
  const conflicts: DraftConflict[] = [];
  const choose = new Map<string, (r: Resolution) => void>();

  const conflict = (c: Omit<DraftConflict, "message">, message: string, onResolve: (r: Resolution) => void) => {
    conflicts.push({ ...c, message });
    choose.set(c.key, onResolve);
  };

  for (const [key, t] of inDraft) {
    const o = t.o;
    const d = draftNow.get(key) ?? null;
    if (same(o, d)) continue;
    const c = baseNow.get(key) ?? null;
    const name = nameOf(d, c, o);
    if (!inBase.has(key) || same(c, o)) {
      result.set(key, { kind: t.kind, id: t.id, row: d });
      continue;
    }
    if (same(d, c)) continue;
    const base = { key, kind: t.kind, id: t.id, name };
    if (d === null) {
      conflict(
        { ...base, field: null, reason: "deleted_in_draft", base: o, draft: null, current: c },
        `The draft deleted ${word(t.kind)} '${name ?? t.id}', which the base changed since the fork`,
        (r) => {
          if (r === "draft") result.set(key, { kind: t.kind, id: t.id, row: null });
        },
      );
      continue;
    }
    if (c === null) {
      conflict(
        { ...base, field: null, reason: "deleted_in_current", base: o, draft: d, current: null },
        `The base deleted ${word(t.kind)} '${name ?? t.id}', which the draft changed`,
        (r) => {
          if (r === "draft") result.set(key, { kind: t.kind, id: t.id, row: d });
        },
      );
      continue;
    }
    const merged: Row = { ...c };
    const was = o ?? {};
    for (const field of new Set([...Object.keys(d), ...Object.keys(c)])) {
      const [dv, cv, ov] = [d[field], c[field], was[field]];
      if (same(dv, ov) || same(dv, cv)) continue;
      if (same(cv, ov)) {
        merged[field] = dv;
        continue;
      }
      conflict(
        { ...base, key: `${key}:${field}`, field, reason: "both_changed", base: ov ?? null, draft: dv, current: cv },
        `Both changed ${field} of ${word(t.kind)} '${name ?? t.id}': was ${show(ov)}, the draft has ${show(dv)}, ` +
          `the base now ${show(cv)}`,
        (r) => {
          merged[field] = r === "draft" ? dv : r === "current" ? cv : r.value;
        },
      );
    }
    result.set(key, { kind: t.kind, id: t.id, row: merged });
  }

  await referenceConflicts(database, tx, { draftId, baseId, inBase, baseNow, result, conflict });

  const invalid: FieldError[] = [];
  const byKey = new Map(conflicts.map((c) => [c.key, c]));
  for (const [key, r] of Object.entries(resolutions)) {
    const c = byKey.get(key);
    if (!c) invalid.push({ path: `resolutions.${key}`, message: "no such conflict (GET /api/drafts/:id/conflicts)" });
    else if (typeof r === "object" && c.field === null)
      invalid.push({
        path: `resolutions.${key}`,
        message: "only 'draft' or 'current' (a whole object is in conflict)",
      });
    else if (typeof r === "object") {
      const wrong = unfitValue(c, r.value);
      if (wrong) invalid.push({ path: `resolutions.${key}`, message: wrong });
    }
  }
  const open: DraftConflict[] = [];
  if (invalid.length === 0) {
    for (const c of conflicts) {
      const r = resolutions[c.key];
      if (r === undefined) open.push(c);
      else choose.get(c.key)?.(r);
    }
  }
  const states: ObjectState[] = [];
  for (const v of result.values()) states.push({ kind: v.kind, objectId: v.id, row: v.row });
  return { states, conflicts: invalid.length === 0 ? open : conflicts, invalid };
}

const kindOf = (v: unknown) => (v === null || v === undefined ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * Why a value of one's own does not fit the conflicting field (null: it fits): a type that is not ArchiMate's for
 * the object's kind, or a value of another kind (text, number, list...) than both sides hold. The merged model's
 * relationships are checked against the validity table afterwards (validateMerge), whatever the value.
 */
function unfitValue(c: DraftConflict, value: unknown): string | null {
  if (c.field === "type" && c.kind === "element" && !(typeof value === "string" && isElementType(value)))
    return `${show(value)} is not an ArchiMate element type`;
  if (
    c.field === "type" &&
    c.kind === "relationship" &&
    !(typeof value === "string" && resolveRelationshipType(value) === value)
  )
    return `${show(value)} is not an ArchiMate relationship type`;
  const kinds = new Set([kindOf(c.draft), kindOf(c.current), kindOf(c.base)]);
  const given = kindOf(value);
  if (kinds.has(given)) return null;
  kinds.delete("null");
  return `${show(value)} is ${given === "null" ? "none" : `a ${given}`}; ${c.field} holds a ${[...kinds].join(" or ")}`;
}

type RefContext = {
  draftId: string;
  baseId: string;
  inBase: Map<string, Touched>;
  baseNow: Map<string, Row>;
  result: Map<string, { kind: Kind; id: string; row: Row | null }>;
  conflict: (c: Omit<DraftConflict, "message">, message: string, onResolve: (r: Resolution) => void) => void;
};

/**
 * The conflicts between one side's deletion and the other's references: the draft refers to (adds or changes a
 * relationship, node, connection... of) an object the base deleted since the fork; the draft deleted an object that
 * the base's objects added or changed since the fork refer to (the delete would take them with it).
 */
async function referenceConflicts(database: Database, tx: DbOrTx, x: RefContext) {
  const deletedInBase = new Set<string>();
  for (const [key, t] of x.inBase) if (t.o && !x.baseNow.has(key)) deletedInBase.add(key);
  const hits: { key: string; v: { kind: Kind; id: string; row: Row }; field: string; gone: Touched }[] = [];
  for (const [key, v] of x.result) {
    if (!v.row) continue;
    for (const ref of refsOf(v.kind, v.row)) {
      const gone = ref.kinds.map((k) => objectKey(k, ref.id)).find((k) => deletedInBase.has(k));
      if (!gone || x.result.get(gone)?.row) continue;
      hits.push({ key, v: { ...v, row: v.row }, field: ref.field, gone: x.inBase.get(gone) as Touched });
      break;
    }
  }
  // "draft" keeps the draft's object and brings back what it refers to, as the draft has it.
  const inDraft = hits.length
    ? await rowsNow(
        database,
        tx,
        x.draftId,
        hits.map((h) => h.gone),
      )
    : new Map();
  for (const { key, v, field, gone } of hits) {
    const name = nameOf(v.row);
    const goneKey = objectKey(gone.kind, gone.id);
    x.conflict(
      {
        key,
        kind: v.kind,
        id: v.id,
        name,
        field: null,
        reason: "endpoint_deleted_in_current",
        base: gone.o,
        draft: v.row,
        current: null,
      },
      `The draft's ${word(v.kind)} '${name ?? v.id}' refers to ${word(gone.kind)} '${nameOf(gone.o) ?? gone.id}' ` +
        `(${field}), which the base deleted since the fork`,
      (r) => {
        if (r === "current") x.result.delete(key);
        else {
          const row = inDraft.get(goneKey) ?? null;
          if (row) x.result.set(goneKey, { kind: gone.kind, id: gone.id, row });
        }
      },
    );
  }
  const deletedInDraft = new Map<string, { kind: Kind; id: string }>();
  for (const [key, v] of x.result) if (!v.row && x.baseNow.has(key)) deletedInDraft.set(key, v);
  if (deletedInDraft.size === 0) return;
  for (const [key, t] of x.inBase) {
    const c = x.baseNow.get(key);
    if (!c || x.result.has(key)) continue;
    for (const ref of refsOf(t.kind, c)) {
      const hit = ref.kinds.map((k) => objectKey(k, ref.id)).find((k) => deletedInDraft.has(k));
      if (!hit) continue;
      const del = deletedInDraft.get(hit) as { kind: Kind; id: string };
      deletedInDraft.delete(hit);
      const current = x.baseNow.get(hit) ?? null;
      x.conflict(
        {
          key: hit,
          kind: del.kind,
          id: del.id,
          name: nameOf(current),
          field: null,
          reason: "referenced_in_current",
          base: current,
          draft: null,
          current,
        },
        `The draft deleted ${word(del.kind)} '${nameOf(current) ?? del.id}', but ${word(t.kind)} ` +
          `'${nameOf(c) ?? t.id}' the base added or changed since the fork refers to it`,
        (r) => {
          if (r === "current") x.result.delete(hit);
        },
      );
    }
  }
}

/** Relationship validity and references of the merged model, for the objects the merge writes: 422 naming each. */
export async function validateMerge(
  database: Database,
  tx: DbOrTx,
  baseId: string,
  states: readonly ObjectState[],
): Promise<void> {
  const merged = new Map<string, Row | null>();
  for (const s of states) merged.set(objectKey(s.kind, s.objectId), s.row);
  const wanted = new Set<string>();
  const typeChanged: string[] = [];
  for (const s of states) {
    if (!s.row) continue;
    for (const ref of refsOf(s.kind, s.row)) wanted.add(ref.id);
    if (s.kind === "element") typeChanged.push(s.objectId);
  }
  // Relationships of the base on elements the merge writes (a type change must keep them valid).
  const touching = typeChanged.length
    ? await database.rows<{ j: unknown }>(
        sql`select to_jsonb(r) - 'workspace_id' - 'revision' as j from relationships r where r.workspace_id = ${baseId}
            and (r.source_id in (select json_array_elements_text(${JSON.stringify(typeChanged)}::json))
              or r.target_id in (select json_array_elements_text(${JSON.stringify(typeChanged)}::json)))`,
        tx,
      )
    : [];
  const relationships: { id: string; row: Row }[] = [];
  for (const s of states) if (s.kind === "relationship" && s.row) relationships.push({ id: s.objectId, row: s.row });
  for (const { j } of touching) {
    const row = asRow(j) as Row;
    const key = objectKey("relationship", String(row.id));
    if (merged.has(key)) continue;
    relationships.push({ id: String(row.id), row });
    wanted.add(String(row.source_id));
    wanted.add(String(row.target_id));
  }
  const list = JSON.stringify([...wanted]);
  const existing = await database.rows<{ kind: Kind; id: string; type: string | null; name?: string | null }>(
    sql`with ids as (select json_array_elements_text(${list}::json) as id)
        select 'element' as kind, id, type, name from elements where workspace_id = ${baseId} and id in (select id from ids)
        union all select 'relationship', id, null, null from relationships where workspace_id = ${baseId} and id in (select id from ids)
        union all select 'view', id, null, null from views where workspace_id = ${baseId} and id in (select id from ids)
        union all select 'node', id, null, null from view_nodes where workspace_id = ${baseId} and id in (select id from ids)
        union all select 'connection', id, null, null from connections where workspace_id = ${baseId} and id in (select id from ids)
        union all select 'property_definition', id, null, null from property_definitions
          where workspace_id = ${baseId} and id in (select id from ids)
        union all select 'folder', id::text, null, null from folders
          where workspace_id = ${baseId} and id::text in (select id from ids)`,
    tx,
  );
  const inBase = new Map(existing.map((e) => [objectKey(e.kind, e.id), e.type]));
  const baseNames = new Map(existing.filter((e) => e.kind === "element").map((e) => [e.id, e.name ?? null]));
  /** An endpoint as the refusal names it: "DataObject 'Nightly job'". */
  const endpoint = (id: string, type: string) => {
    const name = nameOf(merged.get(objectKey("element", id))) ?? baseNames.get(id);
    return name ? `${type} '${name}'` : `${type} '${id}'`;
  };
  const exists = (kind: Kind, id: string) => {
    const key = objectKey(kind, id);
    return merged.has(key) ? merged.get(key) !== null : inBase.has(key);
  };
  const typeOf = (id: string): string | null => {
    const el = merged.get(objectKey("element", id));
    if (el) return String(el.type);
    if (exists("relationship", id)) return "Relationship";
    if (merged.has(objectKey("element", id))) return null;
    return inBase.get(objectKey("element", id)) ?? null;
  };
  const errors: FieldError[] = [];
  for (const s of states) {
    if (!s.row) continue;
    for (const ref of refsOf(s.kind, s.row)) {
      if (ref.kinds.some((k) => exists(k, ref.id))) continue;
      errors.push({
        path: `${s.kind}/${s.objectId}`,
        message: `${ref.field} '${ref.id}' names no ${ref.kinds.map(word).join(" or ")} of the merged model`,
      });
    }
  }
  for (const { id, row } of relationships) {
    const [source, target] = [typeOf(String(row.source_id)), typeOf(String(row.target_id))];
    if (!source || !target) continue;
    if (isRelationshipAllowed(row.type as RelationshipType, source as never, target as never)) continue;
    errors.push({
      path: `relationship/${id}`,
      message:
        `ArchiMate 3.1 does not allow ${String(row.type)} from ${endpoint(String(row.source_id), source)} ` +
        `to ${endpoint(String(row.target_id), target)}`,
    });
  }
  if (errors.length > 0) {
    const shown = errors.slice(0, 5).map((e) => `${e.path}: ${e.message}`);
    throw new AppError(
      "VALIDATION",
      `The merged model would not be valid: ${shown.join("; ")}${errors.length > 5 ? "; ..." : ""}`,
      { errors },
    );
  }
}
