import type { ModelInfo } from "@ams/db";
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

/** What every page may name of an element, relationship or view: enough for a link, a tree leaf or a drawn box. */
export type ReportElement = Pick<ElementRow, "id" | "type" | "name">;
export type ReportRelationship = Pick<
  RelationshipRow,
  "id" | "type" | "name" | "sourceId" | "targetId" | "isDirected" | "accessType" | "influenceStrength"
>;
export type ReportView = Pick<ViewRow, "id" | "name" | "viewpoint">;

/**
 * What of the whole model the report's pages need, whichever page: names and types (links, the tree, the search
 * index), the relationships' ends (an element's relationships) and which views show what ("appears in views").
 * Maps are in the model's order. No documentation, properties or diagrams: those are in a ReportDetail.
 */
export type ReportIndex = {
  name: string;
  model: ModelInfo;
  elements: Map<string, ReportElement>;
  relationships: Map<string, ReportRelationship>;
  views: Map<string, ReportView>;
  outgoing: Map<string, ReportRelationship[]>;
  incoming: Map<string, ReportRelationship[]>;
  /** The views an element or relationship appears in, in view order, each once. */
  appearsIn: Map<string, ReportView[]>;
  folders: FolderRow[];
  resolveIcon?: IconResolver;
};

/**
 * What only the pages of some concepts need: their documentation, properties and (views) diagrams. Indexed from a
 * whole document it holds the whole model's; a streamed report reads it per chunk of pages (read-report.ts).
 */
export type ReportDetail = {
  /** Documentation per `kind:id` (element, relationship, view), when it has any. */
  documentation: Map<string, string>;
  /** Property values per `kind:id` (the icon pack's system property left out: it is drawn, not read). */
  properties: Map<string, { name: string; value: string }[]>;
  /** Per view: its node ids to element ids (or the view a reference node names), connection ids to relationship ids (the SVG's links). */
  conceptOf: Map<string, string>;
  nodesOf: Map<string, ModelDocument["nodes"]>;
  connectionsOf: Map<string, ModelDocument["connections"]>;
  /** An element's icon pack (the system property), for the elements the views drawn show. */
  icons: Map<string, string>;
};

/**
 * The model indexed for the report's pages: each page is built from these maps alone, so a page costs what it
 * shows, whatever the size of the model (the ZIP writes them one at a time; a share link builds one per request).
 */
export type ReportModel = ReportIndex & ReportDetail;

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The index's maps of names and ends, from the concepts in the model's order. */
export function indexConcepts(
  model: ModelInfo,
  elements: Iterable<ReportElement>,
  relationships: Iterable<ReportRelationship>,
  views: Iterable<ReportView>,
  folders: FolderRow[],
  resolveIcon?: IconResolver,
): Omit<ReportIndex, "appearsIn"> {
  const index: Omit<ReportIndex, "appearsIn"> = {
    name: model.name || "Model",
    model,
    elements: new Map(),
    relationships: new Map(),
    views: new Map(),
    outgoing: new Map(),
    incoming: new Map(),
    folders,
    resolveIcon,
  };
  for (const e of elements) index.elements.set(e.id, e);
  for (const r of relationships) {
    index.relationships.set(r.id, r);
    push(index.outgoing, r.sourceId, r);
    push(index.incoming, r.targetId, r);
  }
  for (const v of views) index.views.set(v.id, v);
  return index;
}

/**
 * "Appears in views" from the (concept, view) pairs of the model's nodes and connections, in any order and with
 * repeats: each list in view order, each view once.
 */
export function appearsInOf(
  views: Map<string, ReportView>,
  pairs: Iterable<{ concept: string; viewId: string }>,
): Map<string, ReportView[]> {
  const appearsIn = new Map<string, ReportView[]>();
  const seen = new Set<string>();
  for (const { concept, viewId } of pairs) {
    const key = `${concept}\u0000${viewId}`;
    const view = views.get(viewId);
    if (seen.has(key) || !view) continue;
    seen.add(key);
    push(appearsIn, concept, view);
  }
  const order = new Map<string, number>();
  for (const id of views.keys()) order.set(id, order.size);
  for (const list of appearsIn.values()) list.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return appearsIn;
}

/**
 * Property values as the pages show them: per owner in their order, named by their definition, the icon pack's
 * system property left out. `values` in owner order or not: each owner's list is sorted by ord.
 */
export function propertiesOf(
  definitions: Map<string, string>,
  values: Iterable<Pick<PropertyValueRow, "ownerKind" | "ownerId" | "ord" | "definitionId" | "value">>,
): Map<string, { name: string; value: string }[]> {
  const sorted = [...values].sort((a, b) => a.ord - b.ord);
  const properties = new Map<string, { name: string; value: string }[]>();
  for (const p of sorted) {
    if (p.definitionId === SYSTEM_ICON_PACK_ID) continue;
    push(properties, `${p.ownerKind}:${p.ownerId}`, {
      name: definitions.get(p.definitionId) ?? p.definitionId,
      value: p.value,
    });
  }
  return properties;
}

/** Per view its nodes and connections, and what each drawn node and connection stands for (the SVG's links). */
export function diagramsOf(
  nodes: Iterable<ModelDocument["nodes"][number]>,
  connections: Iterable<ModelDocument["connections"][number]>,
): Pick<ReportDetail, "nodesOf" | "connectionsOf" | "conceptOf"> {
  const nodesOf = new Map<string, ModelDocument["nodes"]>();
  const connectionsOf = new Map<string, ModelDocument["connections"]>();
  const conceptOf = new Map<string, string>();
  for (const n of nodes) {
    push(nodesOf, n.viewId, n);
    // A node that refers to other views (Archi's "diagram model reference"): it links to the first one.
    const refs = (n.style as { viewRefs?: unknown } | null)?.viewRefs;
    if (!n.elementId && Array.isArray(refs) && typeof refs[0] === "string")
      conceptOf.set(`${n.viewId}\u0000${n.id}`, refs[0]);
    if (n.elementId) conceptOf.set(`${n.viewId}\u0000${n.id}`, n.elementId);
  }
  for (const c of connections) {
    push(connectionsOf, c.viewId, c);
    if (c.relationshipId) conceptOf.set(`${c.viewId}\u0000${c.id}`, c.relationshipId);
  }
  return { nodesOf, connectionsOf, conceptOf };
}

/** Documentation per `kind:id`, of the rows that have any. */
export function documentationOf(
  kind: "element" | "relationship" | "view",
  rows: Iterable<{ id: string; documentation: string | null }>,
  into = new Map<string, string>(),
): Map<string, string> {
  for (const r of rows) if (r.documentation !== null) into.set(`${kind}:${r.id}`, r.documentation);
  return into;
}

/**
 * A whole model document indexed for the report, detail and all (a version's report, a share link's, the embedded
 * database's); `resolveIcon` should answer inline icons only (the report is offline).
 */
export function indexReport(doc: ModelDocument, resolveIcon?: IconResolver): ReportModel {
  const index = indexConcepts(doc.model, doc.elements, doc.relationships, doc.views, doc.folders, resolveIcon);
  const pairs: { concept: string; viewId: string }[] = [];
  for (const n of doc.nodes) if (n.elementId) pairs.push({ concept: n.elementId, viewId: n.viewId });
  for (const c of doc.connections) if (c.relationshipId) pairs.push({ concept: c.relationshipId, viewId: c.viewId });
  const icons = new Map<string, string>();
  for (const p of doc.properties)
    if (p.ownerKind === "element" && p.definitionId === SYSTEM_ICON_PACK_ID && !icons.has(p.ownerId))
      icons.set(p.ownerId, p.value);
  const documentation = documentationOf("element", doc.elements);
  documentationOf("relationship", doc.relationships, documentation);
  documentationOf("view", doc.views, documentation);
  return {
    ...index,
    appearsIn: appearsInOf(index.views, pairs),
    documentation,
    properties: propertiesOf(new Map(doc.propertyDefinitions.map((d) => [d.id, d.name])), doc.properties),
    ...diagramsOf(doc.nodes, doc.connections),
    icons,
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
  return {
    view: { id: view.id, name: view.name, documentation: rm.documentation.get(`view:${viewId}`) ?? null },
    nodes,
    connections,
  };
}
