import type {
  ElementRow,
  FolderRow,
  ModelDocument,
  PropertyValueRow,
  RelationshipRow,
  ViewRow,
} from "../exchange/document.ts";
import { renderConnectionOf, renderNodeOf } from "../history/model-at.ts";
import { SYSTEM_ICON_PACK_ID } from "../properties/definitions.ts";
import type { IconResolver, RenderConnection, RenderInput, RenderNode } from "../render/types.ts";

export type ReportKind = "elements" | "relationships" | "views";

/**
 * The whole model indexed for the report's pages: each page is built from these maps alone, so a page costs what
 * it shows, whatever the size of the model (the ZIP writes them one at a time; a share link builds one per request).
 */
export type ReportModel = {
  doc: ModelDocument;
  name: string;
  elements: Map<string, ElementRow>;
  relationships: Map<string, RelationshipRow>;
  views: Map<string, ViewRow>;
  /** Property values per owner id (the icon pack's system property left out: it is drawn, not read). */
  properties: Map<string, { name: string; value: string }[]>;
  outgoing: Map<string, RelationshipRow[]>;
  incoming: Map<string, RelationshipRow[]>;
  /** The views an element or relationship appears in, in view order, each once. */
  appearsIn: Map<string, ViewRow[]>;
  /** Per view: its node ids to element ids (or the view a reference node names), connection ids to relationship ids (the SVG's links). */
  conceptOf: Map<string, string>;
  nodesOf: Map<string, ModelDocument["nodes"]>;
  connectionsOf: Map<string, ModelDocument["connections"]>;
  icons: Map<string, string>;
  folders: FolderRow[];
  resolveIcon?: IconResolver;
};

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Indexes a model document for the report; `resolveIcon` should answer inline icons only (the report is offline). */
export function indexReport(doc: ModelDocument, resolveIcon?: IconResolver): ReportModel {
  const definitions = new Map(doc.propertyDefinitions.map((d) => [d.id, d.name]));
  const properties = new Map<string, { name: string; value: string }[]>();
  const sorted = [...doc.properties].sort((a: PropertyValueRow, b: PropertyValueRow) => a.ord - b.ord);
  for (const p of sorted) {
    if (p.definitionId === SYSTEM_ICON_PACK_ID) continue;
    push(properties, `${p.ownerKind}:${p.ownerId}`, {
      name: definitions.get(p.definitionId) ?? p.definitionId,
      value: p.value,
    });
  }
  const outgoing = new Map<string, RelationshipRow[]>();
  const incoming = new Map<string, RelationshipRow[]>();
  for (const r of doc.relationships) {
    push(outgoing, r.sourceId, r);
    push(incoming, r.targetId, r);
  }
  const views = new Map(doc.views.map((v) => [v.id, v]));
  const nodesOf = new Map<string, ModelDocument["nodes"]>();
  for (const n of doc.nodes) push(nodesOf, n.viewId, n);
  const connectionsOf = new Map<string, ModelDocument["connections"]>();
  for (const c of doc.connections) push(connectionsOf, c.viewId, c);
  const icons = new Map<string, string>();
  for (const p of doc.properties)
    if (p.ownerKind === "element" && p.definitionId === SYSTEM_ICON_PACK_ID && !icons.has(p.ownerId))
      icons.set(p.ownerId, p.value);
  const appearsIn = new Map<string, ViewRow[]>();
  const conceptOf = new Map<string, string>();
  const seen = new Set<string>();
  const mark = (concept: string, viewId: string) => {
    const key = `${concept}\u0000${viewId}`;
    const view = views.get(viewId);
    if (seen.has(key) || !view) return;
    seen.add(key);
    push(appearsIn, concept, view);
  };
  for (const n of doc.nodes) {
    // A node that refers to other views (Archi's "diagram model reference"): it links to the first one.
    const refs = (n.style as { viewRefs?: unknown } | null)?.viewRefs;
    if (!n.elementId && Array.isArray(refs) && typeof refs[0] === "string")
      conceptOf.set(`${n.viewId}\u0000${n.id}`, refs[0]);
    if (!n.elementId) continue;
    conceptOf.set(`${n.viewId}\u0000${n.id}`, n.elementId);
    mark(n.elementId, n.viewId);
  }
  for (const c of doc.connections) {
    if (!c.relationshipId) continue;
    conceptOf.set(`${c.viewId}\u0000${c.id}`, c.relationshipId);
    mark(c.relationshipId, c.viewId);
  }
  const order = new Map(doc.views.map((v, i) => [v.id, i]));
  for (const list of appearsIn.values()) list.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return {
    doc,
    name: doc.model.name || "Model",
    elements: new Map(doc.elements.map((e) => [e.id, e])),
    relationships: new Map(doc.relationships.map((r) => [r.id, r])),
    views,
    properties,
    outgoing,
    incoming,
    appearsIn,
    conceptOf,
    nodesOf,
    connectionsOf,
    icons,
    folders: doc.folders,
    resolveIcon,
  };
}

/**
 * A concept's file name in the report: its id with every character but letters, digits and "-" written as _hex_,
 * so any id (the exchange format's, or any other) is one safe, distinct name; report.js computes the same.
 */
export function fileOf(id: string): string {
  return id.replace(/[^A-Za-z0-9-]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`);
}

/** The render input of one view, from the index (the same mapping as history's renderInputOf, without a scan). */
export function viewInputOf(rm: ReportModel, viewId: string): RenderInput | null {
  const view = rm.views.get(viewId);
  if (!view) return null;
  const nodes: RenderNode[] = (rm.nodesOf.get(viewId) ?? []).map((n) => {
    const e = n.elementId ? rm.elements.get(n.elementId) : undefined;
    return renderNodeOf(n, e, e ? rm.icons.get(e.id) : null);
  });
  const connections: RenderConnection[] = (rm.connectionsOf.get(viewId) ?? []).map((c) =>
    renderConnectionOf(c, c.relationshipId ? rm.relationships.get(c.relationshipId) : undefined),
  );
  return { view: { id: view.id, name: view.name, documentation: view.documentation ?? null }, nodes, connections };
}
