import type { ModelDocument } from "@ams/model";
import { COPY_TABLES } from "./copy-floor.ts";

/** The benchmark's models: a dense view for the render figures, and what a model holds. */
/** Replaces view `v-0` by a dense 200-node view: a grid over consecutive elements, every relationship among them drawn. */
export function withLargeView(doc: ModelDocument, nodeCount: number): ModelDocument {
  const viewId = doc.views[0]!.id;
  const first = 0;
  const nodes: ModelDocument["nodes"] = [];
  const nodeOf = new Map<string, string>();
  for (let k = 0; k < nodeCount; k++) {
    const element = doc.elements[first + k]!;
    const id = `big-n-${k}`;
    nodeOf.set(element.id, id);
    nodes.push({
      id,
      viewId,
      parentId: null,
      ord: k,
      kind: "element",
      elementId: element.id,
      x: 20 + (k % 20) * 150,
      y: 20 + Math.floor(k / 20) * 90,
      w: 120,
      h: 55,
      label: null,
      documentation: null,
      i18n: null,
      style: null,
    });
  }
  const connections: ModelDocument["connections"] = [];
  for (const rel of doc.relationships) {
    const s = nodeOf.get(rel.sourceId);
    const t = nodeOf.get(rel.targetId);
    if (!s || !t) continue;
    const c = connections.length;
    connections.push({
      id: `big-c-${c}`,
      viewId,
      ord: c,
      kind: "relationship",
      relationshipId: rel.id,
      sourceId: s,
      targetId: t,
      bendpoints: c % 5 === 0 ? [{ x: 10, y: 10 + c }] : null,
      label: null,
      documentation: null,
      i18n: null,
      style: null,
    });
  }
  return {
    ...doc,
    nodes: [...nodes, ...doc.nodes.filter((n) => n.viewId !== viewId)],
    connections: [...connections, ...doc.connections.filter((c) => c.viewId !== viewId)],
  };
}

export const shape = (doc: ModelDocument) =>
  `${doc.elements.length} elements, ${doc.relationships.length} relationships, ${doc.views.length} views, ` +
  `${doc.nodes.length} nodes, ${doc.connections.length} connections`;
export const rowCount = (doc: ModelDocument) => COPY_TABLES.reduce((n, [key]) => n + doc[key].length, 0);
export const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
