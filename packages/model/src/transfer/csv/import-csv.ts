import type { Database, DbOrTx, ModelInfo } from "@ams/db";
import {
  type Concept,
  ELEMENT_TYPES,
  type ElementType,
  isRelationshipAllowed,
  RELATIONSHIP_CONCEPT,
  RELATIONSHIP_TYPES,
  type RelationshipType,
} from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../../context.ts";
import type { Warning } from "../../exchange/document.ts";
import { ACCESS_TYPES } from "../../exchange/format.ts";
import { applyStates } from "../../history/apply.ts";
import { importVia, withClosedChange } from "../../history/change.ts";
import type { ObjectState } from "../../history/states.ts";
import { currentRows, type Row } from "../../history/tables.ts";
import { newId } from "../../ids.ts";
import { type DefinitionInfo, loadDefinitions } from "../../properties/definitions.ts";
import { storedValue } from "../../properties/values.ts";
import type { ImportResult } from "../import-model.ts";
import { isZip, readZip } from "../read-zip.ts";
import {
  type CsvFileKind,
  type CsvRecord,
  type CsvTable,
  csvError,
  decodeCsv,
  ELEMENTS_HEADER,
  FORMULA_LOOKING,
  FORMULA_START,
  locate,
  PROPERTIES_HEADER,
  parseCsv,
  RELATIONS_HEADER,
} from "./format.ts";

/** A file of the upload: a CSV of Archi's export or a ZIP holding them. */
export type CsvUpload = { name: string; bytes: Uint8Array };

export type ImportCsvInput = { files: CsvUpload[]; maxBytes?: number };

const MODEL_TYPE = "ArchimateModel";
const HEADERS: Record<CsvFileKind, readonly string[]> = {
  elements: ELEMENTS_HEADER,
  relations: RELATIONS_HEADER,
  properties: PROPERTIES_HEADER,
};
// Archi writes these attributes of relationships and junctions as rows of properties.csv.
const INFLUENCE_STRENGTH = "Influence_Strength";
const ACCESS_TYPE = "Access_Type";
const DIRECTED = "Directed";
const JUNCTION_TYPE = "Junction_Type";
/** Archi's access type names by its index (Write is its default). */
const ARCHI_ACCESS = ["Write", "Read", "Access", "ReadWrite"];
const SPECIALIZATION = "Specialization";

const elementTypeByArchi = new Map<string, ElementType>();
for (const t of ELEMENT_TYPES) {
  if (t.archiName === t.name) elementTypeByArchi.set(t.name, t.name);
}
elementTypeByArchi.set("Junction", "AndJunction");
const relationshipTypeByArchi = new Map<string, RelationshipType>(RELATIONSHIP_TYPES.map((t) => [t.archiName, t.name]));
const archiIdPattern = /^[A-Za-z0-9._-]+$/;

/** Which of the three files a name is: Archi matches "<prefix>elements.csv" and its two siblings. */
function kindOf(name: string): CsvFileKind | null {
  const base = (name.split("/").pop() ?? name).toLowerCase().replace(/\.csv$/, "");
  if (base.endsWith("elements")) return "elements";
  if (base.endsWith("relations")) return "relations";
  if (base.endsWith("properties")) return "properties";
  return null;
}

/** The three files of an upload, a ZIP expanded; at least one, at most one of each kind. */
export function csvFilesOf(files: CsvUpload[], maxBytes: number): Map<CsvFileKind, CsvUpload> {
  const out = new Map<CsvFileKind, CsvUpload>();
  for (const f of files) {
    const inner = isZip(f.bytes)
      ? readZip(f.bytes, { maxTotalBytes: maxBytes, want: (n) => n.toLowerCase().endsWith(".csv") })
      : [f];
    for (const entry of inner) {
      const kind = kindOf(entry.name);
      if (!kind) {
        throw csvError(
          entry.name,
          "not one of Archi's CSV files: name them <prefix>elements.csv, <prefix>relations.csv, <prefix>properties.csv",
        );
      }
      const seen = out.get(kind);
      if (seen) throw csvError(entry.name, `a second ${kind} file besides '${seen.name}'; send one set of files`);
      out.set(kind, { name: entry.name.split("/").pop() ?? entry.name, bytes: entry.bytes });
    }
  }
  if (out.size === 0) {
    throw csvError("files", "no CSV file: send elements.csv, relations.csv and properties.csv (or a ZIP of them)");
  }
  return out;
}

/** The file's records after its header, which must be Archi's (Specialization optional, names case-insensitive). */
function readTable(kind: CsvFileKind, file: CsvUpload): CsvTable {
  const expected = HEADERS[kind];
  const table = parseCsv(file.name, decodeCsv(file.name, file.bytes), expected);
  const optional = kind === "properties" ? 0 : 1;
  const h = table.header;
  const ok =
    h.length >= expected.length - optional &&
    h.length <= expected.length &&
    h.every((name, i) => name.trim().toLowerCase() === expected[i]?.toLowerCase());
  if (!ok) {
    throw csvError(
      locate(file.name, 1, 1),
      `the header must be ${expected.map((x) => `"${x}"`).join(",")} (got ${h.map((x) => `"${x.slice(0, 40)}"`).join(",")})`,
    );
  }
  for (const r of table.records) {
    if (r.fields.length !== h.length) {
      throw csvError(
        locate(file.name, r.row, r.line),
        `has ${r.fields.length} fields where the header has ${h.length}`,
      );
    }
  }
  return table;
}

type Cell = (column: number) => string;

/** A reader of one record's cells: formula-looking text refused, our own export's neutralising quote taken off. */
function cellsOf(table: CsvTable, r: CsvRecord): Cell {
  return (column) => {
    const value = r.fields[column] ?? "";
    if (value.charCodeAt(0) === 39 && FORMULA_START.test(value.slice(1))) return value.slice(1);
    if (column >= 2 && FORMULA_LOOKING.test(value)) {
      throw csvError(
        locate(table.file, r.row, r.line, table.header[column]),
        `'${value.slice(0, 40)}' looks like a spreadsheet formula (starts with ${value[0]}); formula cells are refused. Prefix it with a single quote (') to import it as text.`,
      );
    }
    return value;
  };
}

/** Names and keys are one line in Archi: line breaks and tabs become spaces. */
const oneLine = (s: string) => s.replace(/\r\n|\r|\n|\t/g, " ");

/** An identifier as stored: Archi's id, or "id-" before one that is not an xs:ID (as Archi's XML export does). */
function idOf(table: CsvTable, r: CsvRecord, column: number): string {
  const raw = (r.fields[column] ?? "").trim();
  if (raw === "") return "";
  if (!archiIdPattern.test(raw) || raw.length > 200) {
    throw csvError(
      locate(table.file, r.row, r.line, table.header[column]),
      `'${raw.slice(0, 60)}' is not an identifier (letters, digits, '.', '_' and '-', at most 200)`,
    );
  }
  return /^[A-Za-z_]/.test(raw) ? raw : `id-${raw}`;
}

type Existing = {
  model: ModelInfo;
  elements: Map<string, string>;
  relationships: Map<string, { type: string; sourceId: string; targetId: string }>;
  /** Identifiers of views, nodes, connections and property definitions: not concepts, never updated by CSV. */
  others: Set<string>;
  definitions: DefinitionInfo[];
  maxElementOrd: number;
  maxRelationshipOrd: number;
  maxDefinitionOrd: number;
};

async function readExisting(database: Database, ws: string, tx: DbOrTx): Promise<Existing> {
  const [model, elements, relationships, others, definitions, ords] = await Promise.all([
    database.rows<{ model: ModelInfo | null; name: string }>(
      sql`select model, name from workspaces where id = ${ws}`,
      tx,
    ),
    database.rows<{ id: string; type: string }>(sql`select id, type from elements where workspace_id = ${ws}`, tx),
    database.rows<{ id: string; type: string; source_id: string; target_id: string }>(
      sql`select id, type, source_id, target_id from relationships where workspace_id = ${ws}`,
      tx,
    ),
    database.rows<{ id: string }>(
      sql`select id from views where workspace_id = ${ws}
          union all select id from view_nodes where workspace_id = ${ws}
          union all select id from connections where workspace_id = ${ws}
          union all select id from property_definitions where workspace_id = ${ws}`,
      tx,
    ),
    loadDefinitions(database, ws, tx),
    database.rows<{ e: number | null; r: number | null; d: number | null }>(
      sql`select (select max(ord) from elements where workspace_id = ${ws}) as e,
            (select max(ord) from relationships where workspace_id = ${ws}) as r,
            (select max(ord) from property_definitions where workspace_id = ${ws}) as d`,
      tx,
    ),
  ]);
  const info: ModelInfo = { ...(model[0]?.model ?? {}) };
  return {
    model: info,
    elements: new Map(elements.map((e) => [e.id, e.type])),
    relationships: new Map(
      relationships.map((r) => [r.id, { type: r.type, sourceId: r.source_id, targetId: r.target_id }]),
    ),
    others: new Set(others.map((o) => o.id)),
    definitions,
    maxElementOrd: ords[0]?.e ?? -1,
    maxRelationshipOrd: ords[0]?.r ?? -1,
    maxDefinitionOrd: ords[0]?.d ?? -1,
  };
}

/** A property row waiting for its owner to be known: owner kind and id, key, value and where it came from. */
type PropertyRow = {
  kind: "model" | "element" | "relationship";
  ownerId: string;
  key: string;
  value: string;
  at: string;
};

/**
 * Imports Archi's CSV files into the active workspace with Archi's semantics: a row whose ID exists updates that
 * element or relationship (name, documentation; properties by key), a new ID (or none) creates one, the model row
 * sets the model's name and documentation. Everything is parsed and checked before anything is written, then
 * written as one change group; any refusal (422 naming file, row and column) leaves the workspace as it was.
 */
export async function importCsv({ ctx, input }: Verb<ImportCsvInput>): Promise<ImportResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const files = csvFilesOf(input.files, input.maxBytes ?? 200 * 1024 * 1024);
  const tables = new Map<CsvFileKind, CsvTable>();
  for (const [kind, file] of files) tables.set(kind, readTable(kind, file));
  const warnings: Warning[] = [];
  const names = [...files.values()].map((f) => f.name).join(", ");
  let counts = { created: 0, updated: 0, elements: 0, relationships: 0, properties: 0 };
  const { closed } = await withClosedChange(
    ctx,
    { summary: `Imported CSV (${names})`.slice(0, 200), via: importVia(ctx) },
    async (tx, change) => {
      const existing = await readExisting(ctx.database, ws, tx);
      const plan = await planImport(ctx.database, ws, tx, existing, tables, warnings);
      counts = plan.counts;
      change.summary = `Imported CSV (${names}): ${plan.counts.created} created, ${plan.counts.updated} updated`.slice(
        0,
        500,
      );
      await applyStates(ctx.database, tx, ws, plan.states);
    },
  );
  if (counts.elements + counts.relationships >= 1000) {
    await ctx.database.rows(sql`analyze elements, relationships, property_values, property_definitions`);
  }
  return {
    elements: counts.elements,
    relationships: counts.relationships,
    views: 0,
    property_definitions: 0,
    created: counts.created,
    updated: counts.updated,
    warnings,
    revision: closed.revision,
  };
}

async function planImport(
  database: Database,
  ws: string,
  tx: DbOrTx,
  existing: Existing,
  tables: Map<CsvFileKind, CsvTable>,
  warnings: Warning[],
) {
  const states: ObjectState[] = [];
  const counts = { created: 0, updated: 0, elements: 0, relationships: 0, properties: 0 };
  /** Element id -> type, new and existing; relationship id -> type (its concept for endpoints). */
  const elementType = new Map(existing.elements);
  const relationshipType = new Map<string, string>();
  for (const [id, r] of existing.relationships) relationshipType.set(id, r.type);
  const fromFile = new Map<string, string>(); // id -> where it was first given
  const properties: PropertyRow[] = [];
  let model: ModelInfo | null = null;
  let modelId = existing.model.identifier ?? null;
  const newElements: Row[] = [];
  const updatedElements = new Map<string, { name: string; documentation: string; at: string }>();
  const newRelationships: Row[] = [];
  const updatedRelationships = new Map<string, { name: string; documentation: string }>();
  /** Relationship attributes set by properties.csv rows: id -> column -> value. */
  const attributes = new Map<string, Record<string, unknown>>();

  const claim = (table: CsvTable, r: CsvRecord, id: string) => {
    const where = locate(table.file, r.row, r.line, "ID");
    const first = fromFile.get(id);
    if (first) throw csvError(where, `'${id}' is given twice (first at ${first}): a duplicate row`);
    if (existing.others.has(id)) {
      throw csvError(where, `'${id}' is the identifier of a view, view object or property definition here`);
    }
    fromFile.set(id, locate(table.file, r.row, r.line));
  };

  const elements = tables.get("elements");
  if (elements) {
    let ord = existing.maxElementOrd;
    for (const r of elements.records) {
      const cell = cellsOf(elements, r);
      const type = r.fields[1] ?? "";
      if (type === MODEL_TYPE) {
        const id = idOf(elements, r, 0);
        if (id) modelId = modelId ?? id;
        if (id) fromFile.set(id, locate(elements.file, r.row, r.line));
        model = { ...(model ?? existing.model), name: oneLine(cell(2)), documentation: cell(3) };
        if (!existing.model.identifier && id) model.identifier = id;
        continue;
      }
      const resolved = elementTypeByArchi.get(type);
      if (!resolved) {
        const hint = relationshipTypeByArchi.has(type)
          ? " (a relationship type: it belongs in relations.csv)"
          : " (Archi's class names: BusinessActor, ApplicationComponent, Node, Junction, ...)";
        throw csvError(
          locate(elements.file, r.row, r.line, "Type"),
          `unknown element type '${type.slice(0, 60)}'${hint}`,
        );
      }
      const id = idOf(elements, r, 0) || newId();
      claim(elements, r, id);
      if (relationshipType.has(id)) {
        throw csvError(locate(elements.file, r.row, r.line, "ID"), `'${id}' is a relationship in this workspace`);
      }
      const name = oneLine(cell(2));
      const documentation = cell(3);
      const specialization = r.fields.length > 4 ? oneLine(cell(4)) : "";
      const known = existing.elements.get(id);
      if (known !== undefined) {
        const sameType = known === resolved || (type === "Junction" && known.endsWith("Junction"));
        if (!sameType) {
          throw csvError(
            locate(elements.file, r.row, r.line, "Type"),
            `'${id}' is a ${known} in this workspace, not a ${resolved}`,
          );
        }
        updatedElements.set(id, { name, documentation, at: locate(elements.file, r.row, r.line) });
        counts.updated++;
      } else {
        elementType.set(id, resolved);
        newElements.push({ id, ord: ++ord, type: resolved, name, documentation: documentation || null, i18n: null });
        counts.created++;
      }
      counts.elements++;
      if (specialization) {
        properties.push({
          kind: "element",
          ownerId: id,
          key: SPECIALIZATION,
          value: specialization,
          at: locate(elements.file, r.row, r.line, "Specialization"),
        });
      }
    }
  }

  const relations = tables.get("relations");
  if (relations) {
    let ord = existing.maxRelationshipOrd;
    const pending: { row: Row; r: CsvRecord }[] = [];
    const signatures = new Map<string, string>();
    for (const r of relations.records) {
      const cell = cellsOf(relations, r);
      const typeName = r.fields[1] ?? "";
      const type = relationshipTypeByArchi.get(typeName);
      if (!type) {
        throw csvError(
          locate(relations.file, r.row, r.line, "Type"),
          `unknown relationship type '${typeName.slice(0, 60)}' (Archi's class names: AssignmentRelationship, ServingRelationship, ...)`,
        );
      }
      const given = idOf(relations, r, 0);
      const id = given || newId();
      claim(relations, r, id);
      if (elementType.has(id)) {
        throw csvError(locate(relations.file, r.row, r.line, "ID"), `'${id}' is an element, not a relationship`);
      }
      const name = oneLine(cell(2));
      const documentation = cell(3);
      const sourceId = idOf(relations, r, 4);
      const targetId = idOf(relations, r, 5);
      const specialization = r.fields.length > 6 ? oneLine(cell(6)) : "";
      const known = existing.relationships.get(id);
      if (known) {
        if (known.type !== type) {
          throw csvError(
            locate(relations.file, r.row, r.line, "Type"),
            `'${id}' is a ${known.type} relationship in this workspace, not ${type}`,
          );
        }
        if ((sourceId && sourceId !== known.sourceId) || (targetId && targetId !== known.targetId)) {
          warnings.push({
            path: locate(relations.file, r.row, r.line, "Source"),
            message: `the ends of existing relationship '${id}' are kept (as Archi does); only its name, documentation and properties are updated`,
          });
        }
        updatedRelationships.set(id, { name, documentation });
        counts.updated++;
      } else {
        // Rows without an ID that say the same thing twice are a duplicate too.
        if (!given) {
          const signature = JSON.stringify([type, sourceId, targetId, name]);
          const first = signatures.get(signature);
          if (first) {
            throw csvError(
              locate(relations.file, r.row, r.line),
              `repeats the relationship at ${first}: a duplicate row`,
            );
          }
          signatures.set(signature, locate(relations.file, r.row, r.line));
        }
        relationshipType.set(id, type);
        pending.push({
          row: {
            id,
            ord: ++ord,
            type,
            source_id: sourceId,
            target_id: targetId,
            name: name || null,
            documentation: documentation || null,
            is_directed: null,
            access_type: null,
            influence_strength: null,
            i18n: null,
          },
          r,
        });
        counts.created++;
      }
      counts.relationships++;
      if (specialization) {
        properties.push({
          kind: "relationship",
          ownerId: id,
          key: SPECIALIZATION,
          value: specialization,
          at: locate(relations.file, r.row, r.line, "Specialization"),
        });
      }
    }
    // Ends are checked once every relationship of the file is known: one may connect to another given after it.
    const conceptOf = (id: string): Concept | undefined =>
      (elementType.get(id) as ElementType | undefined) ?? (relationshipType.has(id) ? RELATIONSHIP_CONCEPT : undefined);
    for (const { row, r } of pending) {
      const ends: Concept[] = [];
      for (const [column, id] of [
        [4, row.source_id],
        [5, row.target_id],
      ] as const) {
        const where = locate(relations.file, r.row, r.line, relations.header[column]);
        if (!id) throw csvError(where, "a new relationship needs its source and target");
        const concept = conceptOf(String(id));
        if (!concept) {
          throw csvError(where, `'${id}' is neither an element nor a relationship of this workspace or these files`);
        }
        ends.push(concept);
      }
      const [source, target] = ends as [Concept, Concept];
      if (!isRelationshipAllowed(row.type as RelationshipType, source, target)) {
        throw csvError(
          locate(relations.file, r.row, r.line, "Type"),
          `ArchiMate 3.1 does not allow ${row.type} from ${source} '${row.source_id}' to ${target} '${row.target_id}'`,
        );
      }
      newRelationships.push(row);
    }
  }

  const props = tables.get("properties");
  if (props) {
    for (const r of props.records) {
      const cell = cellsOf(props, r);
      const id = idOf(props, r, 0);
      const at = locate(props.file, r.row, r.line);
      if (!id) throw csvError(locate(props.file, r.row, r.line, "ID"), "a property needs the ID of its owner");
      const key = oneLine(cell(1));
      const value = oneLine(cell(2));
      if (!key) throw csvError(locate(props.file, r.row, r.line, "Key"), "a property needs a key");
      if (elementType.has(id)) {
        if (key === JUNCTION_TYPE && elementType.get(id)?.endsWith("Junction")) {
          const junction = value === "And" ? "AndJunction" : "OrJunction";
          elementType.set(id, junction);
          const fresh = newElements.find((e) => e.id === id);
          if (fresh) fresh.type = junction;
          else attributes.set(id, { ...attributes.get(id), type: junction });
          continue;
        }
        properties.push({ kind: "element", ownerId: id, key, value, at });
      } else if (relationshipType.has(id)) {
        const type = relationshipType.get(id);
        const attribute =
          key === INFLUENCE_STRENGTH && type === "Influence"
            ? { influence_strength: value || null }
            : key === ACCESS_TYPE && type === "Access"
              ? { access_type: ACCESS_TYPES.find((t) => t === value) ?? ARCHI_ACCESS[0] }
              : key === DIRECTED && type === "Association"
                ? { is_directed: value.toLowerCase() === "true" }
                : null;
        if (attribute) attributes.set(id, { ...attributes.get(id), ...attribute });
        else properties.push({ kind: "relationship", ownerId: id, key, value, at });
      } else if (id === modelId) {
        properties.push({ kind: "model", ownerId: "", key, value, at });
      } else {
        throw csvError(
          locate(props.file, r.row, r.line, "ID"),
          `'${id}' is not an element, relationship or the model of this workspace or these files`,
        );
      }
    }
  }

  // Rows of the objects the import updates, as they are now: the new state is the old one with the CSV's values.
  const elementRows = await currentRows(database, ws, "element", [...updatedElements.keys()], tx);
  const relationshipRows = await currentRows(
    database,
    ws,
    "relationship",
    [
      ...new Set([
        ...updatedRelationships.keys(),
        ...[...attributes.keys()].filter((id) => existing.relationships.has(id)),
      ]),
    ],
    tx,
  );
  const junctionRows = await currentRows(
    database,
    ws,
    "element",
    [...attributes.keys()].filter((id) => existing.elements.has(id) && !updatedElements.has(id)),
    tx,
  );
  for (const [id, u] of updatedElements) {
    const row = elementRows.get(id);
    if (!row) continue;
    const next = { ...row, name: u.name, documentation: u.documentation || null, ...attributes.get(id) };
    states.push({ kind: "element", objectId: id, row: next });
  }
  for (const [id, row] of junctionRows)
    states.push({ kind: "element", objectId: id, row: { ...row, ...attributes.get(id) } });
  for (const row of newElements) states.push({ kind: "element", objectId: String(row.id), row });
  for (const [id, row] of relationshipRows) {
    const u = updatedRelationships.get(id);
    const next = {
      ...row,
      ...(u ? { name: u.name || null, documentation: u.documentation || null } : {}),
      ...attributes.get(id),
    };
    states.push({ kind: "relationship", objectId: id, row: next });
  }
  for (const row of newRelationships) {
    states.push({ kind: "relationship", objectId: String(row.id), row: { ...row, ...attributes.get(String(row.id)) } });
  }
  if (model) states.push({ kind: "model", objectId: ws, row: model as Row });

  // Properties by key: the owner's first value of that key is updated, else a value is added (Archi's rule).
  if (properties.length > 0) {
    const definitions = new Map(existing.definitions.map((d) => [d.name, d]));
    let defOrd = existing.maxDefinitionOrd;
    const owners = [...new Set(properties.map((p) => `${p.kind}\u0000${p.ownerId}`))];
    const current = await database.rows<{
      owner_kind: string;
      owner_id: string;
      ord: number;
      definition_id: string;
      value: string;
      i18n: unknown;
    }>(
      sql`select v.owner_kind, v.owner_id, v.ord, v.definition_id, v.value, v.i18n from property_values v
          join json_to_recordset(${JSON.stringify(owners.map((o) => ({ k: o.split("\u0000")[0], i: o.split("\u0000")[1] })))}::json)
            as o(k text, i text) on v.owner_kind = o.k and v.owner_id = o.i
          where v.workspace_id = ${ws} order by v.owner_kind, v.owner_id, v.ord`,
      tx,
    );
    const byOwner = new Map<string, { rows: Row[]; next: number }>();
    for (const c of current) {
      const k = `${c.owner_kind}\u0000${c.owner_id}`;
      const entry = byOwner.get(k) ?? { rows: [], next: 0 };
      entry.rows.push({ ...c });
      entry.next = Math.max(entry.next, c.ord + 1);
      byOwner.set(k, entry);
    }
    const touched = new Set<Row>();
    for (const p of properties) {
      let def = definitions.get(p.key);
      if (!def) {
        def = { id: newId(), name: p.key, type: "string", isSystem: false, allowedValues: null };
        definitions.set(p.key, def);
        states.push({
          kind: "property_definition",
          objectId: def.id,
          row: {
            id: def.id,
            ord: ++defOrd,
            name: p.key,
            type: "string",
            is_system: false,
            allowed_values: null,
            i18n: null,
          },
        });
      }
      let value: string;
      try {
        value = storedValue(def, p.value);
      } catch (err) {
        throw csvError(`${p.at}, column Value`, (err as Error).message);
      }
      const k = `${p.kind}\u0000${p.ownerId}`;
      const entry = byOwner.get(k) ?? { rows: [], next: 0 };
      byOwner.set(k, entry);
      const same = entry.rows.find((row) => row.definition_id === def.id && !(row as { fresh?: boolean }).fresh);
      if (same) {
        same.value = value;
        touched.add(same);
      } else {
        const row: Row = {
          owner_kind: p.kind,
          owner_id: p.ownerId,
          ord: entry.next++,
          definition_id: def.id,
          value,
          i18n: null,
        };
        Object.defineProperty(row, "fresh", { value: true, enumerable: false });
        entry.rows.push(row);
        touched.add(row);
      }
      counts.properties++;
    }
    for (const row of touched) states.push({ kind: "property_value", objectId: `${row.owner_id}/${row.ord}`, row });
  }
  return { states, counts };
}
