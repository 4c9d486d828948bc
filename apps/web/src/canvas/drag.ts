import type { FlatNode } from "./view-model.ts";

export type Point = { x: number; y: number };
export type Rect = { x: number; y: number; w: number; h: number };

/** What the pointer is doing on the canvas right now. */
export type Drag =
  | { kind: "move"; start: Point; nodes: FlatNode[]; ids: ReadonlySet<string>; dx: number; dy: number; at: Point }
  | { kind: "resize"; start: Point; node: FlatNode; handle: string; box: Rect }
  | { kind: "bend"; connId: string; index: number; points: Point[]; original: Point[]; inserted: boolean }
  | { kind: "band"; start: Point; end: Point; additive: boolean }
  | { kind: "pan"; screen: Point; panX: number; panY: number }
  | { kind: "connect"; source: FlatNode; at: Point };

export const HANDLES = ["nw", "n", "ne", "e", "se", "s", "sw", "w"] as const;
const MIN = { w: 20, h: 20 };

/** Where each resize handle sits on a box. */
export function handlePoint(b: Rect, h: string): Point {
  const x = h.includes("w") ? b.x : h.includes("e") ? b.x + b.w : b.x + b.w / 2;
  const y = h.includes("n") ? b.y : h.includes("s") ? b.y + b.h : b.y + b.h / 2;
  return { x, y };
}

/** The box after dragging a handle by (dx, dy); never smaller than the minimum, the opposite side stays put. */
export function resizedBox(b: Rect, handle: string, dx: number, dy: number): Rect {
  let { x, y, w, h } = b;
  if (handle.includes("e")) w = Math.max(MIN.w, b.w + dx);
  if (handle.includes("s")) h = Math.max(MIN.h, b.h + dy);
  if (handle.includes("w")) {
    w = Math.max(MIN.w, b.w - dx);
    x = b.x + b.w - w;
  }
  if (handle.includes("n")) {
    h = Math.max(MIN.h, b.h - dy);
    y = b.y + b.h - h;
  }
  return { x: Math.round(x), y: Math.round(y), w: Math.round(w), h: Math.round(h) };
}

export function normalizedRect(a: Point, b: Point): Rect {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(a.x - b.x), h: Math.abs(a.y - b.y) };
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The middle of each segment of a polyline: dragging one adds a bendpoint there. */
export function segmentMiddles(points: Point[]): Point[] {
  const out: Point[] = [];
  for (const [i, a] of points.entries()) {
    const b = points[i + 1];
    if (b) out.push({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
  }
  return out;
}
