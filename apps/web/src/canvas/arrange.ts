import type { BendChange, Geometry, GeometryChange } from "./operations.ts";
import { connectionsTouching, descendantsOf, type FlatNode, type ViewState } from "./view-model.ts";

const geometryOf = (n: FlatNode): Geometry => ({ x: n.x, y: n.y, w: n.w, h: n.h, parentId: n.parentId });

/** Selected nodes without those whose ancestor is selected too (moving the ancestor moves them). */
export function topSelected(view: ViewState, selected: ReadonlySet<string>): FlatNode[] {
  const ids = [...selected].filter((id) => view.nodes.has(id));
  const inner = descendantsOf(view, ids);
  return ids.filter((id) => !inner.has(id)).flatMap((id) => view.nodes.get(id) ?? []);
}

/**
 * Geometry changes for moving nodes by per-node deltas: nested nodes travel with their parent (positions are
 * absolute), and bendpoints of connections whose both ends travel move too.
 */
export function moveChanges(
  view: ViewState,
  moves: { node: FlatNode; dx: number; dy: number; parentId?: string | null }[],
): { changes: GeometryChange[]; bends: BendChange[] } {
  const changes: GeometryChange[] = [];
  const travelling = new Map<string, { dx: number; dy: number }>();
  for (const m of moves) {
    if (m.dx === 0 && m.dy === 0 && (m.parentId === undefined || m.parentId === m.node.parentId)) continue;
    const before = geometryOf(m.node);
    const after = {
      ...before,
      x: before.x + m.dx,
      y: before.y + m.dy,
      parentId: m.parentId === undefined ? before.parentId : m.parentId,
    };
    changes.push({ id: m.node.id, before, after });
    travelling.set(m.node.id, { dx: m.dx, dy: m.dy });
    for (const d of descendantsOf(view, [m.node.id])) {
      if (travelling.has(d)) continue;
      const n = view.nodes.get(d);
      if (!n) continue;
      const b = geometryOf(n);
      if (m.dx !== 0 || m.dy !== 0) changes.push({ id: d, before: b, after: { ...b, x: b.x + m.dx, y: b.y + m.dy } });
      travelling.set(d, { dx: m.dx, dy: m.dy });
    }
  }
  const bends: BendChange[] = [];
  for (const c of connectionsTouching(view, new Set(travelling.keys()))) {
    const s = travelling.get(c.source);
    const t = travelling.get(c.target);
    if (!s || !t || s.dx !== t.dx || s.dy !== t.dy || c.bendpoints.length === 0 || (s.dx === 0 && s.dy === 0)) continue;
    bends.push({ id: c.id, before: c.bendpoints, after: c.bendpoints.map((p) => ({ x: p.x + s.dx, y: p.y + s.dy })) });
  }
  return { changes, bends };
}

export type Alignment = "left" | "center" | "right" | "top" | "middle" | "bottom";

export function alignChanges(view: ViewState, nodes: FlatNode[], how: Alignment) {
  const xs = nodes.map((n) => n.x);
  const ys = nodes.map((n) => n.y);
  const left = Math.min(...xs);
  const right = Math.max(...nodes.map((n) => n.x + n.w));
  const top = Math.min(...ys);
  const bottom = Math.max(...nodes.map((n) => n.y + n.h));
  const moves = nodes.map((n) => {
    switch (how) {
      case "left":
        return { node: n, dx: left - n.x, dy: 0 };
      case "right":
        return { node: n, dx: right - n.w - n.x, dy: 0 };
      case "center":
        return { node: n, dx: Math.round((left + right) / 2 - n.w / 2 - n.x), dy: 0 };
      case "top":
        return { node: n, dx: 0, dy: top - n.y };
      case "bottom":
        return { node: n, dx: 0, dy: bottom - n.h - n.y };
      default:
        return { node: n, dx: 0, dy: Math.round((top + bottom) / 2 - n.h / 2 - n.y) };
    }
  });
  return moveChanges(view, moves);
}

/** Equal gaps between neighbours, first and last staying where they are. */
export function distributeChanges(view: ViewState, nodes: FlatNode[], axis: "horizontal" | "vertical") {
  const horizontal = axis === "horizontal";
  const sorted = [...nodes].sort((a, b) => (horizontal ? a.x - b.x : a.y - b.y));
  const first = sorted[0];
  const last = sorted.at(-1);
  if (!first || !last || sorted.length < 3) return moveChanges(view, []);
  const span = horizontal ? last.x + last.w - first.x : last.y + last.h - first.y;
  const used = sorted.reduce((sum, n) => sum + (horizontal ? n.w : n.h), 0);
  const gap = (span - used) / (sorted.length - 1);
  let at = horizontal ? first.x : first.y;
  const moves = sorted.map((n) => {
    const target = Math.round(at);
    at += (horizontal ? n.w : n.h) + gap;
    return horizontal ? { node: n, dx: target - n.x, dy: 0 } : { node: n, dx: 0, dy: target - n.y };
  });
  return moveChanges(view, moves);
}
