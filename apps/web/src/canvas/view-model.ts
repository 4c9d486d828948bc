import type { Box } from "@ams/model/render";
import { elementNotation } from "@ams/shared";
import type { ViewConnection, ViewDetail } from "../api/types.ts";

/** A view node as the canvas keeps it: flat, with its parent, in drawing order. Coordinates are absolute. */
export type FlatNode = {
  id: string;
  kind: string;
  element_id: string | null;
  label?: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
  style?: unknown;
  parentId: string | null;
  /** The node's revision as last read or written (0 until the server answered a new node): sent as If-Match. */
  revision?: number;
};
export type FlatConnection = ViewConnection;

export type ViewState = {
  id: string;
  name: string;
  viewpoint: string | null;
  documentation: string | null;
  nodes: Map<string, FlatNode>;
  /** Drawing order: parents before children, siblings in stored order. */
  order: string[];
  connections: Map<string, FlatConnection>;
};

type TreeNode = ViewDetail["nodes"][number];

export function flattenView(view: ViewDetail): ViewState {
  const nodes = new Map<string, FlatNode>();
  const order: string[] = [];
  const visit = (n: TreeNode, parentId: string | null) => {
    const { children, ...rest } = n;
    nodes.set(n.id, { ...rest, parentId });
    order.push(n.id);
    for (const c of children as TreeNode[]) visit(c, n.id);
  };
  for (const n of view.nodes) visit(n, null);
  return {
    id: view.id,
    name: view.name,
    viewpoint: view.viewpoint,
    documentation: view.documentation,
    nodes,
    order,
    connections: new Map(view.connections.map((c) => [c.id, c])),
  };
}

/** Recomputes drawing order after parents changed: parents before children, siblings keep their order. */
export function reorder(state: ViewState): string[] {
  const children = new Map<string | null, string[]>();
  for (const id of state.order) {
    const n = state.nodes.get(id);
    if (!n) continue;
    const parent = n.parentId && state.nodes.has(n.parentId) ? n.parentId : null;
    const list = children.get(parent);
    if (list) list.push(id);
    else children.set(parent, [id]);
  }
  for (const [id] of state.nodes)
    if (!state.order.includes(id)) children.get(null)?.push(id) ?? children.set(null, [id]);
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    out.push(id);
    for (const c of children.get(id) ?? []) visit(c);
  };
  for (const id of children.get(null) ?? []) visit(id);
  for (const id of state.order) if (state.nodes.has(id)) visit(id);
  return out;
}

export function shapeOf(n: FlatNode, elementType: string | undefined): Box["shape"] {
  return n.kind === "element" && elementType ? elementNotation(elementType).shape : "rect";
}

/** Every node nested (at any depth) under one of the given nodes, the nodes themselves excluded. */
export function descendantsOf(state: ViewState, ids: Iterable<string>): Set<string> {
  const roots = new Set(ids);
  const out = new Set<string>();
  for (const id of state.order) {
    const n = state.nodes.get(id);
    if (!n?.parentId) continue;
    if (roots.has(n.parentId) || out.has(n.parentId)) out.add(id);
  }
  for (const r of roots) out.delete(r);
  return out;
}

export function contains(outer: { x: number; y: number; w: number; h: number }, x: number, y: number): boolean {
  return x >= outer.x && y >= outer.y && x <= outer.x + outer.w && y <= outer.y + outer.h;
}

/**
 * The innermost node under a point that can hold others (not one of `excluded`): the drop target for nesting.
 * Later in drawing order means drawn on top, so the last hit wins.
 */
export function containerAt(state: ViewState, x: number, y: number, excluded: ReadonlySet<string>): FlatNode | null {
  let hit: FlatNode | null = null;
  for (const id of state.order) {
    if (excluded.has(id)) continue;
    const n = state.nodes.get(id);
    if (!n || n.kind === "label") continue;
    if (contains(n, x, y)) hit = n;
  }
  return hit;
}

export function boundsOf(boxes: Iterable<{ x: number; y: number; w: number; h: number }>) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const b of boxes) {
    minX = Math.min(minX, b.x);
    minY = Math.min(minY, b.y);
    maxX = Math.max(maxX, b.x + b.w);
    maxY = Math.max(maxY, b.y + b.h);
  }
  return minX <= maxX ? { x: minX, y: minY, w: maxX - minX, h: maxY - minY } : null;
}

/** Connections touching any of the nodes (or connections) given, followed transitively through connections. */
export function connectionsTouching(state: ViewState, ids: Set<string>): FlatConnection[] {
  const hit = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of state.connections.values()) {
      if (hit.has(c.id)) continue;
      if (ids.has(c.source) || ids.has(c.target) || hit.has(c.source) || hit.has(c.target)) {
        hit.add(c.id);
        grew = true;
      }
    }
  }
  return [...hit].flatMap((id) => state.connections.get(id) ?? []);
}
