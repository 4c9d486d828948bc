import { NOTATION_DEFAULTS, shapeOutline } from "@ams/shared";
import { extend, type RenderContext } from "./context.ts";
import { escapeXml, num } from "./escape.ts";
import { composeViewSvg, drawingOrder, layoutBoxes } from "./render-view.ts";
import { type Box, centerOf, clipToBox, type Point } from "./route.ts";
import { textWidth } from "./text.ts";
import type { RenderInput, RenderOptions } from "./types.ts";

/** How an object of a view differs between two points of history. */
export type DiffMark = "added" | "removed" | "changed";

/** Green, red and amber, dark enough to read on white and on the notation's pale fills. */
export const DIFF_COLORS: Record<DiffMark, string> = { added: "#1a7f37", removed: "#cf222e", changed: "#bf8700" };

/** Removed objects are drawn as they were, at this opacity: there, but no longer part of the view. */
const GHOST = 0.35;
/** How far a mark's outline stands off the node's outline. */
const HALO = 3;
const LEGEND_FONT = 11;
const LEGEND_GAP = 20;
const SWATCH = { w: 18, h: 11 };

export type ViewComparison = {
  /** The view at the first point; null when it did not exist then. Both sides use the same coordinates. */
  from: RenderInput | null;
  /** The view at the second point; null when it did not exist then. */
  to: RenderInput | null;
  /**
   * Nodes and connections present at both points whose content changed: their own fields (label, style, parent,
   * bendpoints) or their element's or relationship's (a rename, a property). A node's place is compared here.
   */
  changed: ReadonlySet<string>;
  /** What is compared with what, above the legend ("from “Before lunch” (revision 3) to current (revision 7)"). */
  caption: string;
};

export type ViewDiffPicture = { svg: string; counts: Record<DiffMark, number> };

const sameBox = (a: Box, b: Box) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;

/** Absolute boxes of a view's nodes, as the renderer lays them out. */
function boxesOf(input: RenderInput): Map<string, Box> {
  const { order, parentOf } = drawingOrder(input.nodes);
  return layoutBoxes(order, parentOf, input.coordinates === "relative");
}

/**
 * A view's changes between two points as one picture: the view at the second point, with what was removed drawn
 * where it was (ghosted), each added (green), removed (red, dashed) and changed or moved (amber) node and connection
 * outlined, a moved or resized node's former outline dashed and faint, and a legend with the counts. The drawing is
 * the renderer's own, so the picture shows the view exactly as its image route does; all text is escaped.
 */
export function renderViewDiffSvg(cmp: ViewComparison, opts: RenderOptions = {}): ViewDiffPicture {
  const before = cmp.from ?? { view: cmp.to?.view ?? { name: "" }, nodes: [], connections: [] };
  const after = cmp.to ?? { view: before.view, nodes: [], connections: [], coordinates: before.coordinates };
  const nodesAfter = new Set(after.nodes.map((n) => n.id));
  const nodesBefore = new Set(before.nodes.map((n) => n.id));
  const connectionsAfter = new Set(after.connections.map((c) => c.id));
  const connectionsBefore = new Set(before.connections.map((c) => c.id));
  // Removed objects first, so that what the view holds now is drawn above their ghosts.
  const input: RenderInput = {
    view: after.view,
    nodes: [...before.nodes.filter((n) => !nodesAfter.has(n.id)), ...after.nodes],
    connections: [...before.connections.filter((c) => !connectionsAfter.has(c.id)), ...after.connections],
    coordinates: after.coordinates,
  };

  const marks = new Map<string, DiffMark>();
  const formerBoxes = new Map<string, Box>();
  const oldBoxes = boxesOf(before);
  const newBoxes = boxesOf(after);
  for (const n of input.nodes) {
    if (!nodesBefore.has(n.id)) marks.set(n.id, "added");
    else if (!nodesAfter.has(n.id)) marks.set(n.id, "removed");
    else {
      const [was, is] = [oldBoxes.get(n.id), newBoxes.get(n.id)];
      const moved = was !== undefined && is !== undefined && !sameBox(was, is);
      if (moved) formerBoxes.set(n.id, was);
      if (moved || cmp.changed.has(n.id)) marks.set(n.id, "changed");
    }
  }
  for (const c of input.connections) {
    if (!connectionsBefore.has(c.id)) marks.set(c.id, "added");
    else if (!connectionsAfter.has(c.id)) marks.set(c.id, "removed");
    else if (cmp.changed.has(c.id)) marks.set(c.id, "changed");
  }
  const counts: Record<DiffMark, number> = { added: 0, removed: 0, changed: 0 };
  for (const m of marks.values()) counts[m]++;

  const nodeIds = input.nodes.map((n) => n.id);
  const connectionIds = input.connections.map((c) => c.id);
  const svg = composeViewSvg(input, opts, {
    title: `${after.view.name ?? ""}: changes, ${cmp.caption}`,
    wrap: (id) =>
      marks.get(id) === "removed" ? `<g class="diff-ghost" data-id="${escapeXml(id)}" opacity="${GHOST}">` : undefined,
    draw: (ctx, boxes, route) => {
      ctx.out.push('<g class="diff-marks" fill="none">');
      for (const id of nodeIds) {
        const mark = marks.get(id);
        const box = boxes.get(id);
        if (!mark || !box) continue;
        const former = formerBoxes.get(id);
        if (former) drawFormer(ctx, id, former, box);
        drawNodeMark(ctx, id, mark, box);
      }
      for (const id of connectionIds) {
        const mark = marks.get(id);
        const points = mark ? route(id) : null;
        if (mark && points && points.length > 1) drawConnectionMark(ctx, id, mark, points);
      }
      ctx.out.push("</g>");
      drawLegend(ctx, cmp.caption, counts);
    },
  });
  return { svg, counts };
}

function drawNodeMark(ctx: RenderContext, id: string, mark: DiffMark, b: Box) {
  const color = DIFF_COLORS[mark];
  const d = shapeOutline(b.shape, b.x - HALO, b.y - HALO, b.w + 2 * HALO, b.h + 2 * HALO);
  const dash = mark === "removed" ? ' stroke-dasharray="7 4"' : "";
  ctx.out.push(
    `<path class="diff-mark diff-${mark}" data-id="${escapeXml(id)}" d="${d}" fill="${color}" fill-opacity="0.1" stroke="${color}" stroke-width="3"${dash}/>`,
  );
  extend(ctx, b.x - HALO - 2, b.y - HALO - 2, b.x + b.w + HALO + 2, b.y + b.h + HALO + 2);
}

/** Where a moved or resized node was: its former outline, faint and dashed, and a line to where it is. */
function drawFormer(ctx: RenderContext, id: string, was: Box, is: Box) {
  const color = DIFF_COLORS.changed;
  const d = shapeOutline(was.shape, was.x, was.y, was.w, was.h);
  ctx.out.push(
    `<path class="diff-former" data-id="${escapeXml(id)}" d="${d}" stroke="${color}" stroke-opacity="0.6" stroke-width="1.5" stroke-dasharray="4 3"/>`,
  );
  // From outline to outline, so that the line crosses neither label.
  const [a, b] = [clipToBox(was, centerOf(is)), clipToBox(is, centerOf(was))];
  const overlap = was.x < is.x + is.w && is.x < was.x + was.w && was.y < is.y + is.h && is.y < was.y + was.h;
  if (!overlap)
    ctx.out.push(
      `<path class="diff-move" data-id="${escapeXml(id)}" d="M${num(a.x)} ${num(a.y)}L${num(b.x)} ${num(b.y)}" stroke="${color}" stroke-opacity="0.6" stroke-width="1.5" stroke-dasharray="2 3"/>`,
    );
  extend(ctx, was.x - 1, was.y - 1, was.x + was.w + 1, was.y + was.h + 1);
}

function drawConnectionMark(ctx: RenderContext, id: string, mark: DiffMark, points: readonly Point[]) {
  const color = DIFF_COLORS[mark];
  const d = points.map((p, i) => `${i === 0 ? "M" : "L"}${num(p.x)} ${num(p.y)}`).join("");
  const dash = mark === "removed" ? ' stroke-dasharray="9 5"' : "";
  ctx.out.push(
    `<path class="diff-mark diff-${mark}" data-id="${escapeXml(id)}" d="${d}" stroke="${color}" stroke-opacity="0.5" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"${dash}/>`,
  );
}

/** A legend text's width, with room for a browser's wider fallback font (the estimate is the PNG fonts'). */
const legendWidth = (text: string) => textWidth(text, LEGEND_FONT, false) * 1.1;

/** Below the drawing: what is compared, then one swatch per mark with its count, and the former-place outline. */
function drawLegend(ctx: RenderContext, caption: string, counts: Record<DiffMark, number>) {
  const b = ctx.bounds;
  const empty = !(b.maxX >= b.minX);
  const x0 = empty ? 0 : b.minX;
  const y0 = empty ? 0 : b.maxY + LEGEND_GAP;
  const line = LEGEND_FONT * 1.6;
  const ink = NOTATION_DEFAULTS.text;
  const out = [`<g class="legend" font-size="${LEGEND_FONT}" fill="${ink}">`];
  out.push(`<text class="legend-caption" x="${num(x0)}" y="${num(y0 + LEGEND_FONT)}">${escapeXml(caption)}</text>`);
  const items: { cls: string; label: string; swatch: string }[] = (["added", "removed", "changed"] as const).map(
    (mark) => ({
      cls: `legend-${mark}`,
      label: `${mark === "added" ? "Added" : mark === "removed" ? "Removed" : "Changed or moved"} (${counts[mark]})`,
      swatch: `fill="${DIFF_COLORS[mark]}" fill-opacity="0.1" stroke="${DIFF_COLORS[mark]}" stroke-width="2"${mark === "removed" ? ' stroke-dasharray="4 2"' : ""}`,
    }),
  );
  items.push({
    cls: "legend-former",
    label: "Where a moved node was",
    swatch: `fill="none" stroke="${DIFF_COLORS.changed}" stroke-opacity="0.6" stroke-width="1.5" stroke-dasharray="4 3"`,
  });
  let x = x0;
  const y = y0 + line;
  for (const item of items) {
    out.push(
      `<g class="${item.cls}"><rect x="${num(x)}" y="${num(y + 1)}" width="${SWATCH.w}" height="${SWATCH.h}" ${item.swatch}/>` +
        `<text x="${num(x + SWATCH.w + 6)}" y="${num(y + LEGEND_FONT)}">${escapeXml(item.label)}</text></g>`,
    );
    x += SWATCH.w + 6 + legendWidth(item.label) + 18;
  }
  out.push("</g>");
  ctx.out.push(out.join(""));
  const width = Math.max(x - 18, x0 + legendWidth(caption));
  extend(ctx, x0, y0, width, y + SWATCH.h + 3);
}
