import type { Database, DbOrTx } from "@ams/db";
import { AppError } from "@ams/shared";
import type { RequestContext } from "../context.ts";
import type { ModelDocument } from "../exchange/document.ts";
import { SYSTEM_ICON_PACK_ID } from "../properties/definitions.ts";
import type { RenderConnection, RenderInput, RenderNode } from "../render/types.ts";
import { readModel } from "../store/read-document.ts";
import { MODEL_TABLES } from "../store/write-document.ts";
import { statesAfter } from "./states.ts";
import { objectIdOf, type Row, type RowKind } from "./tables.ts";
import { getVersion } from "./versions.ts";

const DOC_KEYS: Record<RowKind, Exclude<keyof ModelDocument, "model">> = {
  property_definition: "propertyDefinitions",
  element: "elements",
  relationship: "relationships",
  view: "views",
  node: "nodes",
  connection: "connections",
  property_value: "properties",
  folder: "folders",
};

/** A logged row as the document's record (column names to the document's field names). */
function toRecord(key: Exclude<keyof ModelDocument, "model">, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [col, field] of Object.entries(MODEL_TABLES[key].columns)) out[field] = row[col] ?? null;
  return out;
}

const byOrd = (a: { ord?: unknown }, b: { ord?: unknown }) => Number(a.ord) - Number(b.ord);
const by =
  (...keys: string[]) =>
  (a: Record<string, unknown>, b: Record<string, unknown>) => {
    for (const k of keys) {
      const [x, y] = [a[k], b[k]];
      if (x === y) continue;
      if (x === null || x === undefined) return -1;
      if (y === null || y === undefined) return 1;
      return typeof x === "number" && typeof y === "number" ? x - y : String(x) < String(y) ? -1 : 1;
    }
    return 0;
  };

/**
 * The whole model as it was at `revision`: the current model (one read per table) with every object touched after
 * the revision replaced by its state then (the change log's rule). Read inside the caller's snapshot (`on`).
 */
export async function readModelAt(
  database: Database,
  ws: string,
  revision: number,
  on?: DbOrTx,
): Promise<ModelDocument> {
  const [doc, states] = await Promise.all([
    readModel(database, ws, on),
    statesAfter(database, ws, revision, undefined, on),
  ]);
  if (states.size === 0) return doc;
  const replaced = new Map<string, Map<string, Row | null>>();
  for (const s of states.values()) {
    if (s.kind === "model") {
      const name = doc.model.name;
      doc.model = { ...(s.row ?? {}) };
      if (doc.model.name === undefined) doc.model.name = name;
      continue;
    }
    const key = DOC_KEYS[s.kind];
    if (!replaced.has(key)) replaced.set(key, new Map());
    replaced.get(key)?.set(s.objectId, s.row);
  }
  const mutable = doc as unknown as Record<string, Record<string, unknown>[]>;
  for (const [kind, key] of Object.entries(DOC_KEYS) as [RowKind, keyof typeof mutable][]) {
    const changed = replaced.get(key as string);
    if (!changed) continue;
    const rows = (mutable[key] ?? []).filter((r) => !changed.has(objectIdOf(kind, docRowKey(kind, r))));
    for (const row of changed.values()) if (row) rows.push(toRecord(key as Exclude<keyof ModelDocument, "model">, row));
    mutable[key] = rows.sort(
      kind === "node" || kind === "connection"
        ? by("viewId", "ord")
        : kind === "property_value"
          ? by("ownerKind", "ownerId", "ord")
          : kind === "folder"
            ? by("parentId", "ord")
            : byOrd,
    );
  }
  return doc;
}

/** The log's key fields of a document record. */
const docRowKey = (kind: RowKind, r: Record<string, unknown>): Row =>
  kind === "property_value" ? { owner_id: r.ownerId, ord: r.ord } : { id: r.id };

type DocNode = ModelDocument["nodes"][number];
type DocConnection = ModelDocument["connections"][number];
type DocElement = ModelDocument["elements"][number];
type DocRelationship = ModelDocument["relationships"][number];

/** One view node as the renderer takes it, with its element (and that element's icon pack) when it shows one. */
export function renderNodeOf(
  n: DocNode,
  e: Pick<DocElement, "type" | "name"> | undefined,
  iconPack: string | null | undefined,
): RenderNode {
  return {
    id: n.id,
    kind: n.kind,
    x: n.x,
    y: n.y,
    w: n.w,
    h: n.h,
    parentId: n.parentId,
    label: n.label,
    style: n.style,
    element: e ? { type: e.type, name: e.name ?? "", iconPack: iconPack ?? null } : null,
  };
}

/** One view connection as the renderer takes it, with its relationship when it shows one. */
export function renderConnectionOf(
  c: DocConnection,
  r: Pick<DocRelationship, "type" | "name" | "accessType" | "isDirected" | "influenceStrength"> | undefined,
): RenderConnection {
  return {
    id: c.id,
    kind: c.kind,
    sourceId: c.sourceId,
    targetId: c.targetId,
    bendpoints: c.bendpoints,
    label: c.label,
    style: c.style,
    relationship: r
      ? {
          type: r.type,
          name: r.name,
          accessType: r.accessType,
          isDirected: r.isDirected,
          influenceStrength: r.influenceStrength,
        }
      : null,
  };
}

/** What the renderer needs of one view, from a document (a past state); null when the view did not exist. */
export function renderInputOf(doc: ModelDocument, viewId: string): RenderInput | null {
  const view = doc.views.find((v) => v.id === viewId);
  if (!view) return null;
  const elements = new Map(doc.elements.map((e) => [e.id, e]));
  const relationships = new Map(doc.relationships.map((r) => [r.id, r]));
  const icons = new Map(
    doc.properties
      .filter((p) => p.ownerKind === "element" && p.definitionId === SYSTEM_ICON_PACK_ID)
      .map((p) => [p.ownerId, p.value]),
  );
  const nodes = doc.nodes
    .filter((n) => n.viewId === viewId)
    .map((n) => {
      const e = n.elementId ? elements.get(n.elementId) : undefined;
      return renderNodeOf(n, e, e ? icons.get(e.id) : null);
    });
  const connections = doc.connections
    .filter((c) => c.viewId === viewId)
    .map((c) => renderConnectionOf(c, c.relationshipId ? relationships.get(c.relationshipId) : undefined));
  return { view: { id: view.id, name: view.name, documentation: view.documentation ?? null }, nodes, connections };
}

/** The model at a version of the active workspace, read in one snapshot (404: not this workspace's version). */
export async function documentAtVersion(ctx: RequestContext, ws: string, versionId: string) {
  return ctx.database.db.transaction(
    async (tx) => {
      const version = await getVersion(ctx, ws, versionId, tx);
      return { version, doc: await readModelAt(ctx.database, ws, version.revision, tx) };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** A view as it was at a version, ready for the renderer; 404 when the view did not exist then. */
export async function renderInputAtVersion(ctx: RequestContext, ws: string, viewId: string, versionId: string) {
  const { doc, version } = await documentAtVersion(ctx, ws, versionId);
  const input = renderInputOf(doc, viewId);
  if (!input) throw new AppError("NOT_FOUND", `View '${viewId}' did not exist in version '${version.name}'`);
  return input;
}
