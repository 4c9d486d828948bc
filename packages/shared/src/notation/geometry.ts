import type { ShapeKind } from "./types.ts";

/**
 * Outline geometry of the element shapes, in absolute coordinates. Pure functions of the box so that the server
 * renderer (SVG path) and the browser canvas (Path2D) draw the same outlines.
 */

const n = (v: number) => Math.round(v * 10) / 10;

/** Radius of the rounded corners of behaviour boxes. */
export const ROUNDED_RADIUS = 10;
/** Chamfer of motivation boxes. */
export const CUT_SIZE = 8;
/** Depth of the 3D box of a node. */
export const BOX3D_DEPTH = 10;
/** Size of a grouping's name tab. */
export const TAB = { height: 18, minWidth: 60, maxWidthRatio: 0.6 } as const;

const capRx = (w: number, h: number) => Math.min(h / 2, w / 2);
const eventRx = (w: number, h: number) => Math.min(h / 2, w / 4);
const eventNotch = (w: number, h: number) => Math.min(h / 4, w / 8);
const waveAmplitude = (h: number) => Math.min(5, h / 10);
const cornerOf = (size: number, w: number, h: number) => Math.min(size, w / 4, h / 4);

/** SVG path data of the outline of a shape occupying the box (x, y, w, h). */
export function shapeOutline(kind: ShapeKind, x: number, y: number, w: number, h: number): string {
  const r = x + w;
  const b = y + h;
  switch (kind) {
    case "rounded": {
      const c = cornerOf(ROUNDED_RADIUS, w, h);
      return `M${n(x + c)} ${y}H${n(r - c)}A${c} ${c} 0 0 1 ${r} ${n(y + c)}V${n(b - c)}A${c} ${c} 0 0 1 ${n(r - c)} ${b}H${n(x + c)}A${c} ${c} 0 0 1 ${x} ${n(b - c)}V${n(y + c)}A${c} ${c} 0 0 1 ${n(x + c)} ${y}Z`;
    }
    case "pill": {
      const rx = n(capRx(w, h));
      const ry = n(h / 2);
      return `M${n(x + rx)} ${y}H${n(r - rx)}A${rx} ${ry} 0 0 1 ${n(r - rx)} ${b}H${n(x + rx)}A${rx} ${ry} 0 0 1 ${n(x + rx)} ${y}Z`;
    }
    case "event": {
      const rx = n(eventRx(w, h));
      const notch = n(eventNotch(w, h));
      const ry = n(h / 2);
      return `M${x} ${y}H${n(r - rx)}A${rx} ${ry} 0 0 1 ${n(r - rx)} ${b}H${x}A${notch} ${ry} 0 0 0 ${x} ${y}Z`;
    }
    case "cut": {
      const c = cornerOf(CUT_SIZE, w, h);
      return `M${n(x + c)} ${y}H${n(r - c)}L${r} ${n(y + c)}V${n(b - c)}L${n(r - c)} ${b}H${n(x + c)}L${x} ${n(b - c)}V${n(y + c)}Z`;
    }
    case "wave": {
      const a = waveAmplitude(h);
      return `M${x} ${y}H${r}V${n(b - a)}Q${n(x + w * 0.75)} ${n(b - 3 * a)} ${n(x + w / 2)} ${n(b - a)}T${x} ${n(b - a)}Z`;
    }
    case "box3d": {
      const d = Math.min(BOX3D_DEPTH, w / 4, h / 4);
      return `M${x} ${n(y + d)}H${n(r - d)}V${b}H${x}ZM${x} ${n(y + d)}L${n(x + d)} ${y}H${r}V${n(b - d)}L${n(r - d)} ${b}M${n(r - d)} ${n(y + d)}L${r} ${y}`;
    }
    case "tab": {
      const tw = n(tabWidth(w));
      const th = Math.min(TAB.height, h / 2);
      return `M${x} ${y}H${n(x + tw)}V${n(y + th)}H${r}V${b}H${x}ZM${x} ${n(y + th)}H${n(x + tw)}`;
    }
    case "junction": {
      const rad = n(Math.min(w, h) / 2);
      const cx = n(x + w / 2);
      const cy = n(y + h / 2);
      return `M${n(cx + rad)} ${cy}A${rad} ${rad} 0 1 1 ${n(cx - rad)} ${cy}A${rad} ${rad} 0 1 1 ${n(cx + rad)} ${cy}Z`;
    }
    default:
      return `M${x} ${y}H${r}V${b}H${x}Z`;
  }
}

export function tabWidth(w: number): number {
  return Math.min(w, Math.max(TAB.minWidth, w * TAB.maxWidthRatio));
}

export type Insets = { top: number; right: number; bottom: number; left: number };

/** Room the outline takes from the box, so that text stays inside the drawn shape. */
export function shapeInsets(kind: ShapeKind, w: number, h: number): Insets {
  switch (kind) {
    case "rounded":
      return { top: 0, right: 2, bottom: 0, left: 2 };
    case "pill": {
      const rx = capRx(w, h) * 0.45;
      return { top: 0, right: rx, bottom: 0, left: rx };
    }
    case "event":
      return { top: 0, right: eventRx(w, h) * 0.45, bottom: 0, left: eventNotch(w, h) };
    case "cut":
      return { top: 0, right: 2, bottom: 0, left: 2 };
    case "wave":
      return { top: 0, right: 0, bottom: waveAmplitude(h) * 2, left: 0 };
    case "box3d": {
      const d = Math.min(BOX3D_DEPTH, w / 4, h / 4);
      return { top: d, right: d, bottom: 0, left: 0 };
    }
    case "tab":
      return { top: Math.min(TAB.height, h / 2), right: 0, bottom: 0, left: 0 };
    default:
      return { top: 0, right: 0, bottom: 0, left: 0 };
  }
}

/**
 * Horizontal room the outline takes at the left and right of a horizontal band [y0, y1] of the box (box-local
 * y, 0 at the top): text lines are as wide as the shape is at their height, so the middle line of a pill gets
 * the full width and the lines near its ends less.
 */
export function rowInsets(
  kind: ShapeKind,
  w: number,
  h: number,
  y0: number,
  y1: number,
): { left: number; right: number } {
  const top = Math.max(0, Math.min(y0, h));
  const bottom = Math.max(0, Math.min(y1, h));
  const ry = h / 2;
  // Distance of the band from the vertical middle: farthest and nearest edge.
  const far = Math.min(ry, Math.max(Math.abs(top - ry), Math.abs(bottom - ry)));
  const near = top <= ry && bottom >= ry ? 0 : Math.min(Math.abs(top - ry), Math.abs(bottom - ry));
  const ellipse = (rx: number, d: number) => rx - rx * Math.sqrt(Math.max(0, 1 - (d / ry) ** 2));
  switch (kind) {
    case "rounded": {
      const c = cornerOf(ROUNDED_RADIUS, w, h);
      const into = Math.max(c - top, bottom - (h - c), 0);
      const inset = into > 0 ? c - Math.sqrt(Math.max(0, c * c - into * into)) : 0;
      return { left: inset, right: inset };
    }
    case "cut": {
      const c = cornerOf(CUT_SIZE, w, h);
      const inset = Math.max(c - top, bottom - (h - c), 0);
      return { left: inset, right: inset };
    }
    case "pill": {
      const inset = ellipse(capRx(w, h), far);
      return { left: inset, right: inset };
    }
    case "event": {
      const notch = eventNotch(w, h);
      return { left: notch * Math.sqrt(Math.max(0, 1 - (near / ry) ** 2)), right: ellipse(eventRx(w, h), far) };
    }
    case "box3d":
      return { left: 0, right: Math.min(BOX3D_DEPTH, w / 4, h / 4) };
    default:
      return { left: 0, right: 0 };
  }
}

/**
 * Top-left corner of the type icon of size `size`, `margin` inside the top-right corner of the shape,
 * moved inwards where the outline curves (pills, events) so the icon stays inside it.
 */
export function iconOrigin(
  kind: ShapeKind,
  x: number,
  y: number,
  w: number,
  h: number,
  size: number,
  margin: number,
): { x: number; y: number } {
  let right = margin;
  let top = margin;
  if (kind === "pill" || kind === "event") {
    const rx = kind === "pill" ? capRx(w, h) : eventRx(w, h);
    const ry = h / 2;
    // Horizontal extent of the elliptical cap at the icon's top edge.
    const dy = Math.max(0, ry - top) / ry;
    const extent = rx * Math.sqrt(Math.max(0, 1 - dy * dy));
    right = Math.max(margin, rx - extent + margin);
  } else if (kind === "box3d") {
    const d = Math.min(BOX3D_DEPTH, w / 4, h / 4);
    right += d;
    top += d;
  } else if (kind === "cut") {
    right += cornerOf(CUT_SIZE, w, h) / 2;
  }
  return { x: n(x + w - right - size), y: n(y + top) };
}

/** Ray from (ox, oy) along (dx, dy) against an ellipse: the parameters t of both crossings, or null. */
function rayEllipse(
  ox: number,
  oy: number,
  dx: number,
  dy: number,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
): [number, number] | null {
  if (rx <= 0 || ry <= 0) return null;
  const px = (ox - cx) / rx;
  const py = (oy - cy) / ry;
  const qx = dx / rx;
  const qy = dy / ry;
  const a = qx * qx + qy * qy;
  const b = 2 * (px * qx + py * qy);
  const c = px * px + py * py - 1;
  const disc = b * b - 4 * a * c;
  if (a === 0 || disc < 0) return null;
  const root = Math.sqrt(disc);
  return [(-b - root) / (2 * a), (-b + root) / (2 * a)];
}

/**
 * Where a connection meets the outline: the ray from the centre of the box towards (tx, ty) leaves the shape.
 * Exact for rectangles, junction circles, the curved ends of pills and events and an event's notch; rounded and
 * chamfered corners are treated as square (a gap of a few pixels at most).
 */
export function borderPoint(
  kind: ShapeKind,
  x: number,
  y: number,
  w: number,
  h: number,
  tx: number,
  ty: number,
): { x: number; y: number } {
  const cx = x + w / 2;
  const cy = y + h / 2;
  const dx = tx - cx;
  const dy = ty - cy;
  if (dx === 0 && dy === 0) return { x: cx, y: cy };
  if (kind === "junction") {
    const r = Math.min(w, h) / 2;
    const len = Math.hypot(dx, dy);
    return { x: cx + (dx / len) * r, y: cy + (dy / len) * r };
  }
  // Leaving the bounding box.
  const sx = dx === 0 ? Number.POSITIVE_INFINITY : w / 2 / Math.abs(dx);
  const sy = dy === 0 ? Number.POSITIVE_INFINITY : h / 2 / Math.abs(dy);
  let t = Math.min(sx, sy);
  const hx = cx + dx * t;
  if (kind === "pill" || kind === "event") {
    const rx = kind === "pill" ? capRx(w, h) : eventRx(w, h);
    const ry = h / 2;
    if (hx > x + w - rx) {
      const hit = rayEllipse(cx, cy, dx, dy, x + w - rx, cy, rx, ry);
      if (hit) t = hit[1];
    } else if (kind === "pill" && hx < x + rx) {
      const hit = rayEllipse(cx, cy, dx, dy, x + rx, cy, rx, ry);
      if (hit) t = hit[1];
    } else if (kind === "event") {
      // The notch bites into the left side: stop where the ray enters it.
      const hit = rayEllipse(cx, cy, dx, dy, x, cy, eventNotch(w, h), ry);
      if (hit && hit[0] > 0 && hit[0] < t) t = hit[0];
    }
  }
  return { x: cx + dx * t, y: cy + dy * t };
}
