import type { ModelDocument } from "@ams/model";
import { relationshipTypeName } from "@ams/model";
import { isElementType, layerOf } from "@ams/shared";

/** Property keys of the graph itself: a model property with one of these names is stored as p_<name>. */
const CORE_KEYS = new Set([
  "id",
  "name",
  "type",
  "layer",
  "documentation",
  "is_directed",
  "access_type",
  "influence_strength",
  "viewpoint",
]);

type Props = Record<string, string | number | boolean | string[]>;
export type NodeRow = { id: string; props: Props };
export type EdgeRow = { s: string; t: string; props: Props };

/** The graph of one model as rows grouped for set-based writes: one UNWIND per label or relationship type. */
export type GraphRows = {
  /** Element nodes by ArchiMate type (the second label). */
  elements: Map<string, NodeRow[]>;
  /** (:Relationship) nodes for relationships that are themselves the source or target of a relationship. */
  reified: NodeRow[];
  views: NodeRow[];
  /** Neo4j relationships by type (SERVING, ...), endpoints by model id. */
  relationships: Map<string, EdgeRow[]>;
  /** (:View)-[:CONTAINS]->(:Element), (:Relationship)-[:SOURCE|TARGET]->(...). */
  contains: EdgeRow[];
  sources: EdgeRow[];
  targets: EdgeRow[];
};

/** The parts of a model the graph shows (a ModelDocument is one; readGraphSource reads just these). */
export type GraphSource = {
  propertyDefinitions: Pick<ModelDocument["propertyDefinitions"][number], "id" | "name" | "type">[];
  elements: Pick<ModelDocument["elements"][number], "id" | "type" | "name" | "documentation">[];
  relationships: Pick<
    ModelDocument["relationships"][number],
    | "id"
    | "type"
    | "sourceId"
    | "targetId"
    | "name"
    | "documentation"
    | "isDirected"
    | "accessType"
    | "influenceStrength"
  >[];
  views: Pick<ModelDocument["views"][number], "id" | "name" | "viewpoint" | "documentation">[];
  nodes: Pick<ModelDocument["nodes"][number], "viewId" | "elementId">[];
  properties: Pick<ModelDocument["properties"][number], "ownerKind" | "ownerId" | "definitionId" | "value">[];
};

export function graphRows(doc: GraphSource): GraphRows {
  const definitions = new Map(doc.propertyDefinitions.map((d) => [d.id, d]));
  const propsOf = new Map<string, Props>();
  for (const p of doc.properties) {
    if (p.ownerKind !== "element" && p.ownerKind !== "relationship" && p.ownerKind !== "view") continue;
    const def = definitions.get(p.definitionId);
    if (!def) continue;
    const key = CORE_KEYS.has(def.name) ? `p_${def.name}` : def.name;
    const value = typed(p.value, def.type);
    const owner = `${p.ownerKind}:${p.ownerId}`;
    const props = propsOf.get(owner) ?? {};
    const existing = props[key];
    // A property given twice on one concept keeps every value, as a list of strings.
    props[key] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [String(existing)]), String(value)];
    propsOf.set(owner, props);
  }

  const elements = new Map<string, NodeRow[]>();
  for (const e of doc.elements) {
    const props: Props = propsOf.size
      ? { ...propsOf.get(`element:${e.id}`), id: e.id, name: e.name, type: e.type }
      : { id: e.id, name: e.name, type: e.type };
    if (isElementType(e.type)) props.layer = layerOf(e.type);
    if (e.documentation) props.documentation = e.documentation;
    const list = elements.get(e.type) ?? [];
    list.push({ id: e.id, props });
    elements.set(e.type, list);
  }

  const relIds = new Set(doc.relationships.map((r) => r.id));
  const endpointRels = new Set<string>();
  for (const r of doc.relationships) {
    if (relIds.has(r.sourceId)) endpointRels.add(r.sourceId);
    if (relIds.has(r.targetId)) endpointRels.add(r.targetId);
  }

  const relationships = new Map<string, EdgeRow[]>();
  const reified: NodeRow[] = [];
  const sources: EdgeRow[] = [];
  const targets: EdgeRow[] = [];
  for (const r of doc.relationships) {
    const props: Props = propsOf.size
      ? { ...propsOf.get(`relationship:${r.id}`), id: r.id, type: r.type }
      : { id: r.id, type: r.type };
    if (r.name) props.name = r.name;
    if (r.documentation) props.documentation = r.documentation;
    if (r.isDirected !== null && r.isDirected !== undefined) props.is_directed = r.isDirected;
    if (r.accessType) props.access_type = r.accessType;
    if (r.influenceStrength) props.influence_strength = r.influenceStrength;
    const type = relationshipTypeName(r.type);
    const list = relationships.get(type) ?? [];
    list.push({ s: r.sourceId, t: r.targetId, props });
    relationships.set(type, list);
    if (endpointRels.has(r.id)) {
      reified.push({ id: r.id, props });
      sources.push({ s: r.id, t: r.sourceId, props: {} });
      targets.push({ s: r.id, t: r.targetId, props: {} });
    }
  }

  const views: NodeRow[] = doc.views.map((v) => {
    const props: Props = { ...propsOf.get(`view:${v.id}`), id: v.id, name: v.name };
    if (v.viewpoint) props.viewpoint = v.viewpoint;
    if (v.documentation) props.documentation = v.documentation;
    return { id: v.id, props };
  });
  const contains: EdgeRow[] = [];
  const seen = new Set<string>();
  for (const n of doc.nodes) {
    if (!n.elementId) continue;
    const key = `${n.viewId}\u0000${n.elementId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    contains.push({ s: n.viewId, t: n.elementId, props: {} });
  }
  return { elements, reified, views, relationships, contains, sources, targets };
}

function typed(value: string, type: string): string | number | boolean {
  if (type === "number") {
    const n = Number(value);
    return value.trim() !== "" && Number.isFinite(n) ? n : value;
  }
  if (type === "boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}
