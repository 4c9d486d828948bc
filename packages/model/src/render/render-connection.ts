import {
  type MarkerKind,
  NOTATION_DEFAULTS,
  PLAIN_LINE_NOTATION,
  type RelationshipNotation,
  relationshipNotation,
} from "@ams/shared";
import { extend, fontOf, type RenderContext, textMarkup } from "./context.ts";
import { dashArray, markerDef } from "./defs.ts";
import { colorOf, escapeXml, num, str } from "./escape.ts";
import { type Box, centerOf, cleanBendpoints, clipToBox, midpointOf, type Point } from "./route.ts";
import { textWidth, wrapText } from "./text.ts";
import type { RenderConnection } from "./types.ts";

const LABEL_WIDTH = 160;
const SELF_LOOP = 24;

/** Geometry of all connections of a view, resolved lazily because a connection may end on another connection. */
export class ConnectionRouter {
  private readonly routes = new Map<string, Point[] | null>();
  private readonly pending = new Set<string>();
  private readonly boxes: ReadonlyMap<string, Box>;
  private readonly byId: ReadonlyMap<string, RenderConnection>;

  constructor(boxes: ReadonlyMap<string, Box>, connections: readonly RenderConnection[]) {
    this.boxes = boxes;
    this.byId = new Map(connections.map((c) => [c.id, c]));
  }

  /** The polyline of a connection, clipped to its end nodes; null when an end does not exist (or loops). */
  route(id: string): Point[] | null {
    const known = this.routes.get(id);
    if (known !== undefined) return known;
    const c = this.byId.get(id);
    if (!c || this.pending.has(id)) return null;
    this.pending.add(id);
    const points = this.compute(c);
    this.pending.delete(id);
    this.routes.set(id, points);
    return points;
  }

  private end(id: string): { box?: Box; point: Point } | null {
    const box = this.boxes.get(id);
    if (box) return { box, point: centerOf(box) };
    const other = this.route(id);
    return other ? { point: midpointOf(other) } : null;
  }

  private compute(c: RenderConnection): Point[] | null {
    const s = this.end(c.sourceId);
    const t = this.end(c.targetId);
    if (!s || !t) return null;
    let bends = cleanBendpoints(c.bendpoints);
    if (bends.length === 0 && s.box && s.box === t.box) {
      // A relationship from an element to itself: a loop over the top-right corner.
      const b = s.box;
      bends = [
        { x: b.x + b.w + SELF_LOOP, y: b.y + b.h / 2 },
        { x: b.x + b.w + SELF_LOOP, y: b.y - SELF_LOOP },
        { x: b.x + b.w / 2, y: b.y - SELF_LOOP },
      ];
    }
    const first = s.box ? clipToBox(s.box, bends[0] ?? t.point) : s.point;
    const last = t.box ? clipToBox(t.box, bends[bends.length - 1] ?? s.point) : t.point;
    return [first, ...bends, last];
  }
}

function markerRef(ctx: RenderContext, kind: MarkerKind | null, color: string): string | null {
  if (!kind) return null;
  const id = `${ctx.prefix}m-${kind}-${color.slice(1)}`;
  if (!ctx.markers.has(id)) ctx.markers.set(id, markerDef(kind, color, id));
  return id;
}

function notationOf(c: RenderConnection): RelationshipNotation {
  const r = c.relationship;
  if (c.kind !== "relationship" || !r) return PLAIN_LINE_NOTATION;
  return relationshipNotation(r.type, { accessType: r.accessType, isDirected: r.isDirected });
}

function labelOf(c: RenderConnection): string {
  const r = c.relationship;
  let text = str(c.label) || str(r?.name);
  const strength = str(r?.influenceStrength);
  if (r?.type === "Influence" && strength) text = text ? `${text} (${strength})` : strength;
  return text;
}

/** One connection: a `path.connection` with its end markers, then its label (if any) at the middle of the line. */
export function renderConnection(ctx: RenderContext, router: ConnectionRouter, c: RenderConnection): void {
  const points = router.route(c.id);
  if (!points) return;
  const notation = notationOf(c);
  const color = colorOf(c.style?.line) ?? NOTATION_DEFAULTS.connectionLine;
  const lw = c.style?.lineWidth;
  const width = lw !== undefined && Number.isFinite(lw) && lw > 0 ? Math.min(lw, 20) : NOTATION_DEFAULTS.lineWidth;
  const d: string[] = [];
  for (const [i, p] of points.entries()) {
    d.push(`${i === 0 ? "M" : "L"}${num(p.x)} ${num(p.y)}`);
    extend(ctx, p.x, p.y, p.x, p.y);
  }
  let attrs = `fill="none" stroke="${color}"`;
  if (width !== 1) attrs += ` stroke-width="${width}"`;
  const dash = dashArray(notation.dash, width);
  if (dash) attrs += ` stroke-dasharray="${dash}"`;
  const start = markerRef(ctx, notation.source, color);
  const end = markerRef(ctx, notation.target, color);
  if (start) attrs += ` marker-start="url(#${escapeXml(start)})"`;
  if (end) attrs += ` marker-end="url(#${escapeXml(end)})"`;
  const type = c.relationship && c.kind === "relationship" ? ` data-type="${escapeXml(c.relationship.type)}"` : "";
  ctx.out.push(`<path class="connection" data-id="${escapeXml(c.id)}"${type} d="${d.join("")}" ${attrs}/>`);

  const text = labelOf(c);
  if (!text) return;
  const font = fontOf(c.style?.font);
  const lines = wrapText(text, () => LABEL_WIDTH, 3, font);
  const mid = midpointOf(points);
  const blockH = lines.length * font.lineHeight;
  let widest = 0;
  for (const line of lines) widest = Math.max(widest, textWidth(line, font.fontPx, font.bold));
  const halo = ` stroke="${NOTATION_DEFAULTS.background}" stroke-width="3" stroke-linejoin="round" paint-order="stroke"`;
  // Beside the line rather than on it, so the label hides neither the line nor what it ends on:
  // above a horizontal middle segment, to the right of a vertical one.
  if (Math.abs(mid.dx) >= Math.abs(mid.dy)) {
    const top = mid.y - blockH - 1;
    ctx.out.push(textMarkup(lines, mid.x, top, font, "middle", "connection-label", halo));
    extend(ctx, mid.x - widest / 2, top, mid.x + widest / 2, top + blockH);
  } else {
    const top = mid.y - blockH / 2;
    ctx.out.push(textMarkup(lines, mid.x + 4, top, font, "start", "connection-label", halo));
    extend(ctx, mid.x, top, mid.x + 4 + widest, top + blockH);
  }
}
