import type { FolderRow, ModelDocument, PropertyDefinitionRow } from "../exchange/document.ts";
import { SYSTEM_ICON_PACK } from "../properties/definitions.ts";

/** A row already in the workspace, as far as lining a document up with it needs: its key, its scope, its position. */
export type PlacedRow<K> = { id: K; scope: string | number | null; ord: number };

/** A folder row already in the workspace (folders.*, snake_case as read). */
export type PresentFolder = {
  id: number;
  parent_id: number | null;
  ord: number;
  identifier: string | null;
  label: string | null;
  ref_id: string | null;
};

/** The workspace's system property definition, when it has one. */
export type PresentSystemDefinition = { id: string; name: string; type: string; i18n: unknown };

/** What an import into a workspace that already holds a model lines the document up with. */
export type PresentRows = {
  /** Positions in the model's order of the elements, relationships, views and property definitions there. */
  elements: PlacedRow<string>[];
  relationships: PlacedRow<string>[];
  views: PlacedRow<string>[];
  propertyDefinitions: PlacedRow<string>[];
  nodes: PlacedRow<string>[];
  connections: PlacedRow<string>[];
  folders: PresentFolder[];
  systemDefinition: PresentSystemDefinition | null;
};

/**
 * The document as the workspace should hold it after an import that writes only what differs, so that an object the
 * file did not change compares equal to its row:
 * - elements, relationships, views and property definitions keep their position in the model's order (lists,
 *   export); a new one takes the place the file gives it when that position is free, else goes after the others
 *   (placeInModelOrder), so one added or removed in the middle never renumbers the rest (thousands of recorded
 *   changes for a one-element edit in Archi; the exchange format gives that order no meaning);
 * - nodes and connections keep their position in their view, and folder entries in their folder, while the file
 *   keeps them in the same order (a removed or appended object does not renumber the others); an object placed
 *   before one that kept its position moves it on (positions stay strictly increasing: drawing order is the file's);
 * - folder entries (numbered 1.. in file order by the parser) take the id of the entry they match: the same concept
 *   filed (identifierRef), the same folder identifier, else the same label under the same parent;
 * - property definitions as ensureSystemDefinitions would leave them (the system one kept, or the file's of that
 *   name marked as it), so that it has nothing left to change.
 * The document is not modified; rows that change are copies.
 */
export function alignDocument(doc: ModelDocument, present: PresentRows): ModelDocument {
  const folders = present.folders.length ? matchFolders(doc.folders, present.folders) : doc.folders;
  return {
    ...doc,
    propertyDefinitions: placeInModelOrder(
      withSystemDefinition(doc.propertyDefinitions, present.systemDefinition),
      present.propertyDefinitions,
    ),
    elements: placeInModelOrder(doc.elements, present.elements),
    relationships: placeInModelOrder(doc.relationships, present.relationships),
    views: placeInModelOrder(doc.views, present.views),
    nodes: keepPositions(doc.nodes, (n) => n.viewId, present.nodes),
    connections: keepPositions(doc.connections, (c) => c.viewId, present.connections),
    folders: keepPositions(
      folders,
      (f) => f.parentId,
      present.folders.map((f) => ({ id: f.id, scope: f.parent_id, ord: f.ord })),
    ),
  };
}

/**
 * The definitions with the system one as ensureSystemDefinitions makes it: the first definition named like it marked
 * as the system one, else the workspace's own system definition kept (a file from another tool does not carry it).
 */
export function withSystemDefinition(
  defs: readonly PropertyDefinitionRow[],
  present: PresentSystemDefinition | null,
): PropertyDefinitionRow[] {
  let named: PropertyDefinitionRow | undefined;
  for (const d of defs) if (d.name === SYSTEM_ICON_PACK && (!named || d.ord < named.ord)) named = d;
  if (named) return named.isSystem ? [...defs] : defs.map((d) => (d === named ? { ...d, isSystem: true } : d));
  if (!present || defs.some((d) => d.isSystem || d.id === present.id)) return [...defs];
  const ord = defs.reduce((max, d) => Math.max(max, d.ord), -1) + 1;
  const i18n = (present.i18n ?? null) as PropertyDefinitionRow["i18n"];
  return [...defs, { id: present.id, ord, name: present.name, type: present.type, isSystem: true, i18n }];
}

/**
 * Positions in the model's order, walking the rows in file order: a row already there keeps its position; a new one
 * takes the one after the previous row's when no row there holds it and it still comes before the next row already
 * there (a new workspace's rows, a removed and re-imported object: the file's order, exactly), else the next one after
 * every position in use.
 */
export function placeInModelOrder<R extends { id: string; ord: number }>(
  rows: readonly R[],
  present: readonly PlacedRow<string>[],
): R[] {
  if (present.length === 0) return [...rows];
  const was = new Map(present.map((p) => [p.id, p.ord]));
  const walk = rows
    .map((row, i) => ({ row, i, kept: was.get(row.id), nextKept: Number.POSITIVE_INFINITY }))
    .sort((a, b) => a.row.ord - b.row.ord);
  const used = new Set<number>();
  let end = -1;
  let next = Number.POSITIVE_INFINITY;
  for (let k = walk.length - 1; k >= 0; k--) {
    const step = walk[k];
    if (!step) continue;
    step.nextKept = next;
    if (step.kept !== undefined) {
      next = step.kept;
      used.add(step.kept);
      end = Math.max(end, step.kept);
    }
  }
  const ords = rows.map((row) => row.ord);
  let previous = -1;
  for (const step of walk) {
    let ord = step.kept;
    if (ord === undefined) {
      const slot = previous + 1;
      ord = slot < step.nextKept && !used.has(slot) ? slot : end + 1;
      used.add(ord);
      end = Math.max(end, ord);
    }
    ords[step.i] = ord;
    previous = ord;
  }
  return withOrds(rows, ords);
}

/** The rows with their new positions (a row whose position stays is not copied). */
function withOrds<R extends { ord: number }>(rows: readonly R[], ords: readonly number[]): R[] {
  return rows.map((row, i) => {
    const ord = ords[i] ?? row.ord;
    return ord === row.ord ? row : { ...row, ord };
  });
}

/**
 * Positions within each scope (a view, a parent folder), walking the rows in file order: a row that was already in
 * the same scope keeps its position when it still comes after the previous row's, else it takes the next one.
 */
function keepPositions<K, R extends { id: K; ord: number }>(
  rows: readonly R[],
  scopeOf: (row: R) => string | number | null,
  present: readonly PlacedRow<K>[],
): R[] {
  if (present.length === 0) return [...rows];
  const before = new Map(present.map((p) => [p.id, p]));
  const last = new Map<string | number | null, number>();
  const ords = rows.map((row) => row.ord);
  // File order within a scope is the parser's `ord` (the array is in that order already; sorting makes sure).
  const walk = rows.map((row, i) => ({ row, i })).sort((a, b) => a.row.ord - b.row.ord);
  for (const { row, i } of walk) {
    const scope = scopeOf(row);
    const previous = last.get(scope) ?? -1;
    const was = before.get(row.id);
    const ord = was && was.scope === scope && was.ord > previous ? was.ord : previous + 1;
    last.set(scope, ord);
    ords[i] = ord;
  }
  return withOrds(rows, ords);
}

type FolderLike = {
  id: number;
  parentId: number | null;
  ord: number;
  identifier: string | null;
  label: string | null;
  refId: string | null;
};

/**
 * Each folder row's identity independent of its number: the concept it files, else its identifier, else its label
 * under its parent's identity; the n-th repeat of one (a concept filed twice) is told apart by its count. Rows are
 * visited depth-first by position from the top; a row no walk reaches (a loop) has none.
 */
function folderIdentities(rows: readonly FolderLike[]): Map<number, string> {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, FolderLike[]>();
  for (const r of rows) {
    const parent = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    const list = children.get(parent);
    if (list) list.push(r);
    else children.set(parent, [r]);
  }
  for (const list of children.values()) list.sort((a, b) => a.ord - b.ord);
  const out = new Map<number, string>();
  const seen = new Map<string, number>();
  const stack: { row: FolderLike; parentKey: string }[] = (children.get(null) ?? [])
    .map((row) => ({ row, parentKey: "" }))
    .reverse();
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { row, parentKey } = top;
    if (out.has(row.id)) continue;
    const base =
      row.refId !== null
        ? `r\u0000${row.refId}`
        : row.identifier !== null
          ? `i\u0000${row.identifier}`
          : `l\u0000${parentKey}\u0000${row.label ?? ""}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    const key = n === 0 ? base : `${base}\u0000${n}`;
    out.set(row.id, key);
    for (const kid of [...(children.get(row.id) ?? [])].reverse()) stack.push({ row: kid, parentKey: key });
  }
  return out;
}

/** The file's folder rows renumbered onto the workspace's: a matching row's id, else one above every present id. */
function matchFolders(rows: readonly FolderRow[], present: readonly PresentFolder[]): FolderRow[] {
  const presentIds = folderIdentities(
    present.map((f) => ({
      id: f.id,
      parentId: f.parent_id,
      ord: f.ord,
      identifier: f.identifier,
      label: f.label,
      refId: f.ref_id,
    })),
  );
  const byIdentity = new Map<string, number>();
  for (const [id, key] of presentIds) byIdentity.set(key, id);
  let next = present.reduce((max, f) => Math.max(max, f.id), 0);
  const incoming = folderIdentities(rows);
  const renumbered = new Map<number, number>();
  for (const row of rows) {
    const key = incoming.get(row.id);
    const match = key === undefined ? undefined : byIdentity.get(key);
    if (key !== undefined && match !== undefined) {
      byIdentity.delete(key);
      renumbered.set(row.id, match);
    } else renumbered.set(row.id, ++next);
  }
  return rows.map((row) => {
    const id = renumbered.get(row.id) ?? row.id;
    const parentId = row.parentId === null ? null : (renumbered.get(row.parentId) ?? row.parentId);
    return id === row.id && parentId === row.parentId ? row : { ...row, id, parentId };
  });
}
