import type { Bendpoint } from "@ams/db";
import { borderPoint, type ShapeKind } from "@ams/shared";

export type Point = { x: number; y: number };
/** An absolute node box and the outline drawn in it (connections stop at the outline). */
export type Box = { x: number; y: number; w: number; h: number; shape: ShapeKind };

export const centerOf = (b: Box): Point => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });

/**
 * A connection is drawn from centre to centre (or to the first bendpoint) and stops where it crosses the
 * outline of the node.
 */
export function clipToBox(b: Box, toward: Point): Point {
  return borderPoint(b.shape, b.x, b.y, b.w, b.h, toward.x, toward.y);
}

/** The point halfway along a polyline, and the direction of the segment it lies on. */
export function midpointOf(points: readonly Point[]): Point & { dx: number; dy: number } {
  const [only] = points;
  if (points.length === 1 && only) return { ...only, dx: 1, dy: 0 };
  let total = 0;
  for (const [i, b] of points.entries()) {
    const a = points[i - 1];
    if (a) total += Math.hypot(b.x - a.x, b.y - a.y);
  }
  let rest = total / 2;
  for (const [i, b] of points.entries()) {
    const a = points[i - 1];
    if (!a) continue;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len >= rest && len > 0) {
      const t = rest / len;
      return { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, dx: b.x - a.x, dy: b.y - a.y };
    }
    rest -= len;
  }
  const last = points.at(-1) ?? { x: 0, y: 0 };
  return { ...last, dx: 1, dy: 0 };
}

/** Bendpoints from the database, keeping only well-formed ones. */
export function cleanBendpoints(bendpoints: readonly Bendpoint[] | null | undefined): Point[] {
  if (!Array.isArray(bendpoints)) return [];
  const out: Point[] = [];
  for (const p of bendpoints) {
    if (p && Number.isFinite(p.x) && Number.isFinite(p.y)) out.push({ x: p.x, y: p.y });
  }
  return out;
}
