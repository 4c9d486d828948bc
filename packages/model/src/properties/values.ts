import type { Database, DbOrTx } from "@ams/db";
import { AppError, capList, type FieldError } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { CopyColumn } from "../copy-json.ts";
import type { Properties, PropertiesInput } from "../schemas.ts";
import { idList } from "../sql.ts";
import { type DefinitionInfo, loadDefinitions } from "./definitions.ts";

export type OwnerKind = "model" | "element" | "relationship" | "view";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Converts an input value to its stored text, or explains why it does not fit the definition's type. */
export function storedValue(def: DefinitionInfo, value: string | number | boolean): string | string {
  switch (def.type) {
    case "number": {
      const n =
        typeof value === "number"
          ? value
          : typeof value === "string" && value.trim() !== ""
            ? Number(value)
            : Number.NaN;
      if (!Number.isFinite(n)) throw new Error(`must be a number (definition '${def.name}' has type number)`);
      return String(n);
    }
    case "boolean": {
      if (value === true || value === "true") return "true";
      if (value === false || value === "false") return "false";
      throw new Error(`must be true or false (definition '${def.name}' has type boolean)`);
    }
    case "date": {
      if (typeof value !== "string" || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value))) {
        throw new Error(`must be an ISO 8601 date such as 2024-05-31 (definition '${def.name}' has type date)`);
      }
      return value;
    }
    case "enumeration": {
      const allowed = def.allowedValues;
      if (typeof value !== "string" || (allowed && !allowed.includes(value))) {
        const list = allowed
          ? capList(
              allowed.map((v) => `'${v}'`),
              50,
            )
          : "a string";
        throw new Error(`must be one of ${list} (definition '${def.name}' is an enumeration)`);
      }
      return value;
    }
    default:
      if (typeof value !== "string")
        throw new Error(`must be a string (definition '${def.name}' has type ${def.type})`);
      return value;
  }
}

/** The typed JSON value of a stored text, by its definition's type. */
export function typedValue(type: string, value: string): string | number | boolean {
  if (type === "number") {
    const n = Number(value);
    return value.trim() !== "" && Number.isFinite(n) ? n : value;
  }
  if (type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  return value;
}

function findDefinition(defs: DefinitionInfo[], key: string): DefinitionInfo | undefined {
  return (
    defs.find((d) => d.name === key) ??
    defs.find((d) => d.id === key) ??
    defs.find((d) => d.name.toLowerCase() === key.toLowerCase())
  );
}

/**
 * The stored texts of a property input by definition id (null: remove), checked against the workspace's definitions:
 * keys name definitions (by name or id). Every bad key or value is named (`pathPrefix.key`) in one VALIDATION error.
 */
export function resolvePropertyChanges(
  defs: DefinitionInfo[],
  input: PropertiesInput,
  pathPrefix = "properties",
): Map<string, string | null> {
  const changes = new Map<string, string | null>();
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(input)) {
    const def = findDefinition(defs, key);
    if (!def) {
      errors.push({ path: `${pathPrefix}.${key}`, message: `no property definition named '${key}' in this workspace` });
      continue;
    }
    try {
      changes.set(def.id, value === null ? null : storedValue(def, value));
    } catch (err) {
      errors.push({ path: `${pathPrefix}.${key}`, message: (err as Error).message });
    }
  }
  if (errors.length > 0) {
    const unknownKey = errors.some((e) => e.message.startsWith("no property definition"));
    throw new AppError("VALIDATION", errors.map((e) => `${e.path}: ${e.message}`).join("; "), {
      errors,
      ...(unknownKey ? { see: "propertyDefinitions" as const } : {}),
    });
  }
  return changes;
}

/**
 * Applies property changes to one owner: keys name definitions (by name or id), null removes a value,
 * `replace` drops every value not named. Validates all keys first so a bad value changes nothing. Only what changes
 * is written (a value keeps its row and position), so the change log records exactly the values that changed; the
 * owner's revision then moves to the open change group's. Answers that revision, or undefined when nothing changed.
 */
export async function writeProperties(
  database: Database,
  tx: DbOrTx,
  workspaceId: string,
  owner: { kind: OwnerKind; id: string },
  input: PropertiesInput,
  replace: boolean,
): Promise<number | undefined> {
  const defs = await loadDefinitions(database, workspaceId, tx);
  const changes = resolvePropertyChanges(defs, input);
  const current = await database.rows<{ ord: number; definitionId: string; value: string }>(
    sql`select ord, definition_id as "definitionId", value from property_values
        where workspace_id = ${workspaceId} and owner_kind = ${owner.kind} and owner_id = ${owner.id} order by ord`,
    tx,
  );
  const plan = planPropertyWrite(current, changes, replace);
  if (plan.deletes.length + plan.updates.length + plan.inserts.length === 0) return undefined;
  const key = sql`workspace_id = ${workspaceId} and owner_kind = ${owner.kind} and owner_id = ${owner.id}`;
  if (plan.deletes.length > 0) {
    await database.rows(
      sql`delete from property_values where ${key}
          and ord in (select json_array_elements_text(${JSON.stringify(plan.deletes)}::json)::int)`,
      tx,
    );
  }
  if (plan.updates.length > 0) {
    await database.rows(
      sql`update property_values p set value = u.v, i18n = nullif(coalesce(p.i18n, '{}'::jsonb) - 'value', '{}'::jsonb)
          from json_to_recordset(${JSON.stringify(plan.updates)}::json) as u(o int, v text)
          where p.workspace_id = ${workspaceId} and p.owner_kind = ${owner.kind} and p.owner_id = ${owner.id}
            and p.ord = u.o`,
      tx,
    );
  }
  if (plan.inserts.length > 0) {
    const next = (current.at(-1)?.ord ?? -1) + 1;
    await database.rows(
      sql`insert into property_values (workspace_id, owner_kind, owner_id, ord, definition_id, value)
          select ${workspaceId}, ${owner.kind}, ${owner.id}, ${next} + r.o, r.d, r.v
          from json_to_recordset(${JSON.stringify(plan.inserts.map((n, o) => ({ o, d: n.definitionId, v: n.value })))}::json)
            as r(o int, d text, v text)`,
      tx,
    );
  }
  return touchOwner(database, tx, workspaceId, owner);
}

type PropertyWrite = {
  deletes: number[];
  updates: { o: number; v: string }[];
  inserts: { definitionId: string; value: string }[];
};

/** Which stored values go, change in place, or are added (after the others) for the requested changes. */
function planPropertyWrite(
  current: { ord: number; definitionId: string; value: string }[],
  changes: Map<string, string | null>,
  replace: boolean,
): PropertyWrite {
  const plan: PropertyWrite = { deletes: [], updates: [], inserts: [] };
  const seen = new Set<string>();
  for (const row of current) {
    if (!changes.has(row.definitionId)) {
      if (replace) plan.deletes.push(row.ord);
      continue;
    }
    const value = changes.get(row.definitionId);
    // A definition given a value keeps its first row; a removed one, and repeats of a set one, go.
    if (value === null || value === undefined || seen.has(row.definitionId)) plan.deletes.push(row.ord);
    else if (value !== row.value) plan.updates.push({ o: row.ord, v: value });
    seen.add(row.definitionId);
  }
  for (const [definitionId, value] of changes) {
    if (value !== null && !seen.has(definitionId)) plan.inserts.push({ definitionId, value });
  }
  return plan;
}

const OWNER_TABLE = { element: "elements", relationship: "relationships", view: "views" } as const;

/** A change of its properties is a change of the owner: its revision becomes the open group's. */
async function touchOwner(database: Database, tx: DbOrTx, workspaceId: string, owner: { kind: OwnerKind; id: string }) {
  if (owner.kind === "model") return undefined;
  const [row] = await database.rows<{ revision: number | string }>(
    sql`update ${sql.raw(OWNER_TABLE[owner.kind])} set revision = nullif(current_setting('ams.revision', true), '')::bigint
        where workspace_id = ${workspaceId} and id = ${owner.id} returning revision`,
    tx,
  );
  return row ? Number(row.revision) : undefined;
}

/** Property maps of many owners of one kind (or one owner), keyed by owner id. */
export async function readProperties(
  database: Database,
  workspaceId: string,
  kind: OwnerKind,
  ownerId?: string,
  on?: DbOrTx,
): Promise<Map<string, Properties>> {
  const rows = await database.rows<{ o: string; n: string; t: string; v: string }>(
    ownerId === undefined
      ? sql`select v.owner_id as o, d.name as n, d.type as t, v.value as v from property_values v
            join property_definitions d on d.workspace_id = v.workspace_id and d.id = v.definition_id
            where v.workspace_id = ${workspaceId} and v.owner_kind = ${kind} order by v.owner_id, v.ord`
      : sql`select v.owner_id as o, d.name as n, d.type as t, v.value as v from property_values v
            join property_definitions d on d.workspace_id = v.workspace_id and d.id = v.definition_id
            where v.workspace_id = ${workspaceId} and v.owner_kind = ${kind} and v.owner_id = ${ownerId}
            order by v.ord`,
    on,
  );
  const out = new Map<string, Properties>();
  for (const r of rows) {
    let props = out.get(r.o);
    if (!props) {
      props = {};
      out.set(r.o, props);
    }
    if (!(r.n in props)) props[r.n] = typedValue(r.t, r.v);
  }
  return out;
}

export async function deleteProperties(
  database: Database,
  tx: DbOrTx,
  workspaceId: string,
  kind: OwnerKind,
  ownerIds: string[],
) {
  if (ownerIds.length === 0) return;
  await database.rows(
    sql`delete from property_values where workspace_id = ${workspaceId} and owner_kind = ${kind}
        and owner_id in ${idList(ownerIds)}`,
    tx,
  );
}

/**
 * A LEFT JOIN fragment giving each owner of the kind its property list as JSON ([[name, type, value], ...]) in
 * one set-based pass, so a list is one round trip: `left join ${propertiesJoin(ws, "element")} p on p.owner_id = e.id`.
 */
export function propertiesJoin(workspaceId: string, kind: OwnerKind) {
  return sql`(select v.owner_id, json_agg(json_build_array(d.name, d.type, v.value) order by v.ord) as props
      from property_values v
      join property_definitions d on d.workspace_id = v.workspace_id and d.id = v.definition_id
      where v.workspace_id = ${workspaceId} and v.owner_kind = ${kind}
      group by v.owner_id)`;
}

/** The typed property map of one joined row's `props` column. */
export function propsFromJson(props: [string, string, string][] | null): Properties {
  const out: Properties = {};
  if (!props) return out;
  for (const [name, type, value] of props) if (!(name in out)) out[name] = typedValue(type, value);
  return out;
}

/**
 * The `properties` key of a whole list written from COPY (`CopyJsonArray`), from a `propertiesJoin` column: the
 * values typed as `propsFromJson` types them, `{}` for an owner without any.
 */
export const propertiesCopyColumn: CopyColumn = {
  key: "properties",
  as: "custom",
  write: (props) => (props === null ? "{}" : JSON.stringify(propsFromJson(JSON.parse(props)))),
};

/** The property list of the row aliased `alias` (one owner), as a lateral subquery: `left join lateral ... p on true`. */
export function ownPropertiesLateral(workspaceId: string, kind: OwnerKind, ownerIdColumn: ReturnType<typeof sql>) {
  return sql`lateral (select json_agg(json_build_array(d.name, d.type, v.value) order by v.ord) as props
      from property_values v
      join property_definitions d on d.workspace_id = v.workspace_id and d.id = v.definition_id
      where v.workspace_id = ${workspaceId} and v.owner_kind = ${kind} and v.owner_id = ${ownerIdColumn})`;
}

/** One property cell to write: owner, definition id, stored text (null removes the value). */
export type PropertyCell = { owner: string; definition: string; value: string | null };

/**
 * Writes many owners' property cells in three set-based statements (a bulk edit, a pasted block): removed values
 * and repeats of a definition go, changed values change in place, new ones are added after the owner's others.
 * Only what changes is written, so the change log records exactly the values that changed. Answers the owners whose
 * values changed (their revision is the caller's to move).
 */
export async function writePropertyCells(
  database: Database,
  tx: DbOrTx,
  workspaceId: string,
  kind: OwnerKind,
  cells: PropertyCell[],
): Promise<Set<string>> {
  const changed = new Set<string>();
  if (cells.length === 0) return changed;
  const last = new Map<string, PropertyCell>();
  for (const c of cells) last.set(`${c.owner}\u0000${c.definition}`, c);
  const json = JSON.stringify([...last.values()].map((c, i) => ({ i, o: c.owner, d: c.definition, v: c.value })));
  const input = sql`json_to_recordset(${json}::json) as c(i int, o text, d text, v text)`;
  const gone = await database.rows<{ o: string }>(
    sql`delete from property_values p using ${input}
        where p.workspace_id = ${workspaceId} and p.owner_kind = ${kind} and p.owner_id = c.o and p.definition_id = c.d
          and (c.v is null or p.ord > (select min(q.ord) from property_values q
                where q.workspace_id = p.workspace_id and q.owner_kind = p.owner_kind and q.owner_id = p.owner_id
                  and q.definition_id = p.definition_id))
        returning p.owner_id as o`,
    tx,
  );
  const updated = await database.rows<{ o: string }>(
    sql`update property_values p set value = c.v, i18n = nullif(coalesce(p.i18n, '{}'::jsonb) - 'value', '{}'::jsonb)
        from ${input}
        where p.workspace_id = ${workspaceId} and p.owner_kind = ${kind} and p.owner_id = c.o and p.definition_id = c.d
          and c.v is not null and p.value <> c.v
        returning p.owner_id as o`,
    tx,
  );
  const added = await database.rows<{ o: string }>(
    sql`insert into property_values (workspace_id, owner_kind, owner_id, ord, definition_id, value)
        select ${workspaceId}, ${kind}, n.o,
          coalesce((select max(q.ord) + 1 from property_values q
                    where q.workspace_id = ${workspaceId} and q.owner_kind = ${kind} and q.owner_id = n.o), 0)
            + (row_number() over (partition by n.o order by n.i))::int - 1,
          n.d, n.v
        from (select c.i, c.o, c.d, c.v from ${input}
              where c.v is not null and not exists (select 1 from property_values q
                where q.workspace_id = ${workspaceId} and q.owner_kind = ${kind} and q.owner_id = c.o
                  and q.definition_id = c.d)) n
        returning owner_id as o`,
    tx,
  );
  for (const r of [...gone, ...updated, ...added]) changed.add(r.o);
  return changed;
}
