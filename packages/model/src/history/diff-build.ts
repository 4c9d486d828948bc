import type { KindDiff, ModelDiff, ViewDiff } from "./schemas.ts";
import type { Kind, Row } from "./tables.ts";

/** An object touched between two points: its row at the first (lo) and at the second (hi); null: absent. */
export type Touched = { kind: Kind; objectId: string; lo: Row | null; hi: Row | null };

type FieldChange = { field: string; before: unknown; after: unknown };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields whose values differ, in column order (`skip`: fields reported elsewhere). */
export function changedFields(lo: Row, hi: Row, skip: readonly string[] = []): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of new Set([...Object.keys(lo), ...Object.keys(hi)])) {
    if (skip.includes(field) || same(lo[field], hi[field])) continue;
    out.push({ field, before: lo[field] ?? null, after: hi[field] ?? null });
  }
  return out;
}

const emptyKind = (): KindDiff => ({ added: [], removed: [], changed: [] });
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

const CONCEPT_KINDS = {
  element: "elements",
  relationship: "relationships",
  view: "views",
  property_definition: "property_definitions",
  folder: "folders",
} as const;

/** Sorts touched objects into the diff's per-kind lists and per-view layout changes. */
export function buildDiff(touched: Touched[], names: Map<string, string>): Omit<ModelDiff, "from" | "to"> {
  const out = {
    model: [] as FieldChange[],
    elements: emptyKind(),
    relationships: emptyKind(),
    views: emptyKind(),
    property_definitions: emptyKind(),
    folders: emptyKind(),
  };
  const conceptNames = new Map(names);
  for (const t of touched) {
    const row = t.hi ?? t.lo;
    if (row && (t.kind in CONCEPT_KINDS || t.kind === "property_definition"))
      conceptNames.set(t.objectId, text(row.name ?? row.label) ?? "");
  }
  const changedOf = new Map<string, KindDiff["changed"][number]>();
  const layouts = new Map<string, ViewDiff>();
  const layout = (viewId: string): ViewDiff => {
    let v = layouts.get(viewId);
    if (!v) {
      v = {
        view_id: viewId,
        name: conceptNames.get(viewId) ?? null,
        nodes: { added: [], removed: [], moved: [], resized: [], changed: [] },
        connections: { added: [], removed: [], changed: [] },
      };
      layouts.set(viewId, v);
    }
    return v;
  };
  for (const t of touched) {
    if (same(t.lo, t.hi)) continue;
    if (t.kind === "model") {
      out.model.push(...changedFields(t.lo ?? {}, t.hi ?? {}));
    } else if (t.kind in CONCEPT_KINDS) {
      const list = out[CONCEPT_KINDS[t.kind as keyof typeof CONCEPT_KINDS]];
      const row = (t.hi ?? t.lo) as Row;
      const named = { id: t.objectId, name: text(row.name ?? row.label), type: text(row.type ?? row.viewpoint) };
      if (!t.lo) list.added.push(named);
      else if (!t.hi) list.removed.push(named);
      else {
        const entry = { ...named, fields: changedFields(t.lo, t.hi) };
        list.changed.push(entry);
        changedOf.set(t.objectId, entry);
      }
    }
  }
  for (const t of touched) {
    if (same(t.lo, t.hi)) continue;
    const row = (t.hi ?? t.lo) as Row;
    if (t.kind === "property_value") propertyChange(t, row, out, changedOf, conceptNames);
    if (t.kind === "node") nodeChange(t, row, layout(String(row.view_id)), conceptNames);
    if (t.kind === "connection") connectionChange(t, row, layout(String(row.view_id)));
  }
  return { ...out, view_layouts: [...layouts.values()] };
}

/** A property value's change is a field change of its owner ("properties.<definition name>"). */
function propertyChange(
  t: Touched,
  row: Row,
  out: { elements: KindDiff; relationships: KindDiff; views: KindDiff; model: FieldChange[] },
  changedOf: Map<string, KindDiff["changed"][number]>,
  names: Map<string, string>,
) {
  const field = `properties.${names.get(String(row.definition_id)) ?? row.definition_id}`;
  const change = { field, before: t.lo?.value ?? null, after: t.hi?.value ?? null };
  const ownerId = String(row.owner_id);
  if (row.owner_kind === "model") return void out.model.push(change);
  const list = out[`${row.owner_kind}s` as "elements" | "relationships" | "views"];
  if (!list || list.added.some((x) => x.id === ownerId) || list.removed.some((x) => x.id === ownerId)) return;
  let entry = changedOf.get(ownerId);
  if (!entry) {
    entry = { id: ownerId, name: names.get(ownerId) ?? null, type: null, fields: [] };
    list.changed.push(entry);
    changedOf.set(ownerId, entry);
  }
  entry.fields.push(change);
}

function nodeChange(t: Touched, row: Row, v: ViewDiff, names: Map<string, string>) {
  const label = text(row.label) ?? (row.element_id ? (names.get(String(row.element_id)) ?? null) : null);
  const base = { id: t.objectId, label };
  if (!t.lo) return void v.nodes.added.push(base);
  if (!t.hi) return void v.nodes.removed.push(base);
  const [lo, hi] = [t.lo, t.hi];
  if (lo.x !== hi.x || lo.y !== hi.y)
    v.nodes.moved.push({
      ...base,
      before: { x: Number(lo.x), y: Number(lo.y) },
      after: { x: Number(hi.x), y: Number(hi.y) },
    });
  if (lo.w !== hi.w || lo.h !== hi.h)
    v.nodes.resized.push({
      ...base,
      before: { w: Number(lo.w), h: Number(lo.h) },
      after: { w: Number(hi.w), h: Number(hi.h) },
    });
  const fields = changedFields(lo, hi, ["x", "y", "w", "h"]);
  if (fields.length > 0) v.nodes.changed.push({ ...base, fields });
}

function connectionChange(t: Touched, row: Row, v: ViewDiff) {
  const base = { id: t.objectId, label: text(row.label) };
  if (!t.lo) return void v.connections.added.push(base);
  if (!t.hi) return void v.connections.removed.push(base);
  v.connections.changed.push({ ...base, fields: changedFields(t.lo, t.hi) });
}
