import { elementNotation, NOTATION_DEFAULTS } from "@ams/shared";
import { extend, type RenderContext } from "./context.ts";
import { iconDef } from "./defs.ts";
import { escapeXml, num } from "./escape.ts";
import { pluginIconResolver } from "./plugin-icon.ts";
import { ConnectionRouter, renderConnection } from "./render-connection.ts";
import { renderNode } from "./render-node.ts";
import type { Box, Point } from "./route.ts";
import type { RenderInput, RenderNode, RenderOptions, SvgLayout } from "./types.ts";

export type { IconResolver, RenderInput, RenderOptions, SvgLayout } from "./types.ts";

const MARGIN = 12;
const EMPTY = { w: 120, h: 40 };
const DEFAULT_SIZE = { w: 120, h: 55 };
const SVG_NS = "http://www.w3.org/2000/svg";

const finite = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const positive = (v: unknown, fallback: number) =>
  typeof v === "number" && Number.isFinite(v) && v > 0 ? v : fallback;

/**
 * Parents before children, siblings in input order. A node whose parent is missing, or that sits in a parent
 * cycle, is drawn at the top level.
 */
export function drawingOrder(nodes: readonly RenderNode[]): {
  order: RenderNode[];
  parentOf: Map<string, RenderNode>;
  hasChildren: Set<string>;
} {
  const byId = new Map<string, RenderNode>();
  for (const n of nodes) byId.set(n.id, n);
  const children = new Map<string, RenderNode[]>();
  const parentOf = new Map<string, RenderNode>();
  const roots: RenderNode[] = [];
  for (const n of nodes) {
    const parent = n.parentId ? byId.get(n.parentId) : undefined;
    if (parent && parent !== n) {
      const list = children.get(parent.id);
      if (list) list.push(n);
      else children.set(parent.id, [n]);
      parentOf.set(n.id, parent);
    } else roots.push(n);
  }
  const order: RenderNode[] = [];
  const seen = new Set<string>();
  const visit = (n: RenderNode) => {
    if (seen.has(n.id)) return;
    seen.add(n.id);
    order.push(n);
    const list = children.get(n.id);
    if (list) for (const c of list) visit(c);
  };
  for (const r of roots) visit(r);
  for (const n of nodes) {
    if (!seen.has(n.id)) {
      parentOf.delete(n.id); // in a cycle: treat as top level
      visit(n);
    }
  }
  return { order, parentOf, hasChildren: new Set(children.keys()) };
}

/** Absolute boxes of all nodes (children's positions added to their parents' when stored relative). */
export function layoutBoxes(
  order: readonly RenderNode[],
  parentOf: Map<string, RenderNode>,
  relative: boolean,
): Map<string, Box> {
  const boxes = new Map<string, Box>();
  for (const n of order) {
    let x = finite(n.x, 0);
    let y = finite(n.y, 0);
    if (relative) {
      const parent = parentOf.get(n.id);
      const pb = parent ? boxes.get(parent.id) : undefined;
      if (pb) {
        x += pb.x;
        y += pb.y;
      }
    }
    boxes.set(n.id, {
      x,
      y,
      w: positive(n.w, DEFAULT_SIZE.w),
      h: positive(n.h, DEFAULT_SIZE.h),
      shape: n.kind === "element" && n.element ? elementNotation(n.element.type).shape : "rect",
    });
  }
  return boxes;
}

/**
 * What a comparison picture (render-diff.ts) adds to a view's drawing: a group around some nodes and connections
 * (to colour or ghost them), and a layer above everything that may extend the drawing (a legend).
 */
export type ViewOverlay = {
  /** The opening tag of a <g> around one node's or connection's markup; undefined draws it as it is. */
  wrap(id: string): string | undefined;
  /** Draws the top layer into ctx.out (and extends ctx.bounds), knowing every box and each connection's route. */
  draw(ctx: RenderContext, boxes: ReadonlyMap<string, Box>, route: (id: string) => Point[] | null): void;
  /** The document's <title>, instead of the view's name. */
  title?: string;
};

/**
 * A standalone SVG document of a view in ArchiMate notation. Reads nothing but its input, never throws on odd
 * data (unknown types, dangling ends, a failing icon resolver), and escapes every piece of text it writes.
 */
export function renderViewSvg(input: RenderInput, opts: RenderOptions = {}): string {
  return composeViewSvg(input, opts);
}

/** renderViewSvg, with an overlay drawn into the same document. */
export function composeViewSvg(input: RenderInput, opts: RenderOptions, overlay?: ViewOverlay): string {
  const prefix = (opts.idPrefix ?? "ams-").replace(/[^A-Za-z0-9_-]/g, "") || "ams-";
  const ctx: RenderContext = {
    prefix,
    out: [],
    icons: new Set(),
    markers: new Map(),
    bounds: { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity },
    pluginIcon: pluginIconResolver(opts.resolveIcon),
    heat: opts.heat?.fills,
  };
  const nodes = input.nodes ?? [];
  const connections = input.connections ?? [];
  const { order, parentOf, hasChildren } = drawingOrder(nodes);
  const boxes = layoutBoxes(order, parentOf, input.coordinates === "relative");

  // Each node's and connection's run of parts and extent, when the caller asks for the layout.
  const items: SvgLayout["items"][number][] | undefined = opts.layout ? [] : undefined;
  const wrapped = (id: string, draw: () => void) => {
    const start = ctx.out.length;
    const outer = ctx.bounds;
    if (items) ctx.bounds = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    const open = overlay?.wrap(id);
    const link = opts.href?.(id);
    if (link) ctx.out.push(`<a href="${escapeXml(link)}">`);
    if (open) ctx.out.push(open);
    draw();
    if (open) ctx.out.push("</g>");
    if (link) ctx.out.push("</a>");
    if (items) {
      const own = ctx.bounds;
      ctx.bounds = outer;
      if (own.maxX >= own.minX) extend(ctx, own.minX, own.minY, own.maxX, own.maxY);
      items.push({ start, end: ctx.out.length, ...own });
    }
  };
  ctx.out.push('<g class="nodes">');
  for (const n of order) {
    const box = boxes.get(n.id); // layoutBoxes gives every node of the order its box
    if (box) wrapped(n.id, () => renderNode(ctx, n, box, hasChildren.has(n.id)));
  }
  ctx.out.push('</g><g class="connections">');
  const router = new ConnectionRouter(boxes, connections);
  for (const c of connections) wrapped(c.id, () => renderConnection(ctx, router, c));
  ctx.out.push("</g>");
  if (opts.heat) renderLegend(ctx, opts.heat.legend);
  overlay?.draw(ctx, boxes, (id) => router.route(id));

  const b = ctx.bounds;
  const empty = !(b.maxX >= b.minX);
  const vx = empty ? 0 : Math.floor(b.minX - MARGIN);
  const vy = empty ? 0 : Math.floor(b.minY - MARGIN);
  const vw = empty ? EMPTY.w : Math.ceil(b.maxX + MARGIN) - vx;
  const vh = empty ? EMPTY.h : Math.ceil(b.maxY + MARGIN) - vy;

  const attrs = `font-family="${NOTATION_DEFAULTS.fontFamily}" font-size="12"`;
  const head: string[] = [`<title>${escapeXml(overlay?.title ?? input.view?.name ?? "")}</title>`];
  if (input.view?.documentation) head.push(`<desc>${escapeXml(input.view.documentation)}</desc>`);
  if (ctx.icons.size > 0 || ctx.markers.size > 0) {
    head.push("<defs>");
    for (const type of ctx.icons) head.push(iconDef(type, `${prefix}i-${type}`));
    for (const def of ctx.markers.values()) head.push(def);
    head.push("</defs>");
  }
  head.push(
    `<rect class="background" x="${num(vx)}" y="${num(vy)}" width="${vw}" height="${vh}" fill="${NOTATION_DEFAULTS.background}"/>`,
  );
  const rest = head.join("");
  if (items) opts.layout?.({ vx, vy, vw, vh, attrs, head: rest, parts: ctx.out, items });
  return `${svgOpen(vx, vy, vw, vh, attrs)}${rest}${ctx.out.join("")}</svg>`;
}

/** The opening tag of a document showing [x, x + w] × [y, y + h] of the drawing, w × h units large (or `size`). */
export function svgOpen(
  x: number,
  y: number,
  w: number,
  h: number,
  attrs: string,
  size: { width: number; height: number } = { width: w, height: h },
): string {
  return `<svg xmlns="${SVG_NS}" width="${size.width}" height="${size.height}" viewBox="${x} ${y} ${w} ${h}" ${attrs}>`;
}

const SWATCH = 14;
const LEGEND_ROW = 20;

/** The heatmap's legend below the drawing: its title, then a swatch and a label per colour. */
function renderLegend(ctx: RenderContext, legend: NonNullable<RenderOptions["heat"]>["legend"]) {
  const b = ctx.bounds;
  const x = b.maxX >= b.minX ? b.minX : 0;
  let y = (b.maxY >= b.minY ? b.maxY : 0) + 24;
  ctx.out.push(
    `<g class="legend"><text x="${num(x)}" y="${num(y + 12)}" font-weight="bold">${escapeXml(`Colour by: ${legend.title}`)}</text>`,
  );
  let width = 120 + legend.title.length * 7;
  for (const entry of legend.entries) {
    y += LEGEND_ROW;
    ctx.out.push(
      `<rect x="${num(x)}" y="${num(y)}" width="${SWATCH}" height="${SWATCH}" fill="${escapeXml(entry.color)}" stroke="${NOTATION_DEFAULTS.nodeLine}"/>` +
        `<text x="${num(x + SWATCH + 6)}" y="${num(y + 11)}">${escapeXml(entry.label)}</text>`,
    );
    width = Math.max(width, SWATCH + 6 + entry.label.length * 7);
  }
  ctx.out.push("</g>");
  extend(ctx, x, b.minY, x + width, y + SWATCH);
}
