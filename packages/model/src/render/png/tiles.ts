import { svgOpen } from "../render-view.ts";
import type { SvgLayout } from "../types.ts";

/** One tile: a document of its own drawing the picture's columns (axis x) or rows (axis y) [from, to). */
export type Tile = { svg: string; from: number; to: number };
export type Tiling = { axis: "x" | "y"; width: number; height: number; tiles: Tile[] };

/** Below these a picture is drawn whole: a tile's fixed cost (a document parsed, a thread woken) would not pay. */
const MIN_PIXELS = 300_000;
const MIN_ITEMS = 24;
/**
 * How far beyond its recorded extent a node's or connection's ink may reach, in SVG units: half the widest stroke,
 * an arrowhead's overhang past the route's last point, a label's descenders. An item this close to a tile is drawn
 * into it as well (the tile's own edge clips it).
 */
const REACH = 16;
/**
 * What resvg draws as a layer of its own (a group with opacity, a clip, a mask, a filter, a nested viewport, a
 * marker). resvg 2.6 panics, taking the process down, when such a layer lies more than about the canvas's own size
 * beyond it, which a tile's canvas makes possible: a tile keeps layers within half its size of its edges (markers of
 * far ends are left out, their ink being out of the tile anyway) or is not used.
 */
const LAYER = / opacity="|clip-path=|mask=|filter=|<svg|<marker| marker-/;
const MARKERS = / marker-(start|end)="[^"]*"/g;
const ENDS = /^<path class="connection"[^>]* d="M(-?[\d.e+-]+) (-?[\d.e+-]+)(?:[^"]*L(-?[\d.e+-]+) (-?[\d.e+-]+))?"/;

/**
 * A view's drawing cut into `count` tiles across its longer side (strips of columns of a wide picture, bands of
 * rows of a tall one), for rasterizing them at once on as many threads: resvg draws a document on one. Each tile is
 * the same document with its viewBox moved to the tile's pixels and only the nodes and connections whose extent
 * reaches into it, so that each thread also parses and lays out only its share of the labels.
 *
 * The tiles' pixels are the whole picture's: resvg stretches the document's viewBox onto its width × height
 * pixels (each rounded from the scale), so a tile shows the same part of the viewBox stretched alike
 * (preserveAspectRatio none, drawn at its own size in pixels), and the cuts fall between pixels. What differs is
 * the anti-aliasing of hairlines (lines thinner than a pixel) where the cut clips them: tiny-skia walks a hairline
 * from where it enters the canvas, so a line entering through a cut is shaded a step differently along its length.
 * Cutting across the longer side keeps that rare: most lines of a wide view run along its width, and enter a strip
 * of columns at a whole pixel. Undefined when the picture is too small to gain from it, or holds a layer a tile could
 * not keep (LAYER).
 */
export function tileDocuments(layout: SvgLayout, scale: number, count: number): Tiling | undefined {
  const width = Math.round(layout.vw * scale);
  const height = Math.round(layout.vh * scale);
  if (count < 2 || width * height < MIN_PIXELS || layout.items.length < MIN_ITEMS) return undefined;
  // Parts outside every node and connection (the legend) go into every tile: none may hold a layer.
  let inItems = 0;
  const common: string[] = [];
  for (const item of layout.items) {
    common.push(...layout.parts.slice(inItems, item.start));
    inItems = item.end;
  }
  common.push(...layout.parts.slice(inItems));
  if (common.some((part) => LAYER.test(part))) return undefined;
  const axis = width >= height ? "x" : "y";
  const pixels = axis === "x" ? width : height;
  // Units of the viewBox per pixel along the cut axis, and where the viewBox starts on it.
  const unit = axis === "x" ? layout.vw / width : layout.vh / height;
  const origin = axis === "x" ? layout.vx : layout.vy;
  const tiles: Tile[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * pixels) / count);
    const to = Math.floor(((i + 1) * pixels) / count);
    if (to <= from) continue;
    const lo = origin + from * unit;
    const hi = origin + to * unit;
    const size = (to - from) * unit;
    const attrs = `preserveAspectRatio="none" ${layout.attrs}`;
    const open =
      axis === "x"
        ? svgOpen(lo, layout.vy, size, layout.vh, attrs, { width: to - from, height })
        : svgOpen(layout.vx, lo, layout.vw, size, attrs, { width, height: to - from });
    const body: string[] = [open, layout.head];
    const safe = { lo: lo - size / 2, hi: hi + size / 2 };
    let at = 0;
    for (const item of layout.items) {
      for (; at < item.start; at++) body.push(layout.parts[at] ?? "");
      const min = axis === "x" ? item.minX : item.minY;
      const max = axis === "x" ? item.maxX : item.maxY;
      at = item.end;
      // Only where its ink may reach; an item that drew nothing measurable draws nothing anywhere.
      if (!(max >= min) || min - REACH >= hi || max + REACH <= lo) continue;
      const markup = layout.parts.slice(item.start, item.end).join("");
      if (!LAYER.test(markup)) body.push(markup);
      else if (markup.startsWith('<path class="connection"') && !LAYER.test(markup.replace(MARKERS, ""))) {
        body.push(withNearMarkers(markup, axis, safe));
      } else if (min >= safe.lo && max <= safe.hi) body.push(markup);
      else return undefined;
    }
    for (; at < layout.parts.length; at++) body.push(layout.parts[at] ?? "");
    body.push("</svg>");
    tiles.push({ svg: body.join(""), from, to });
  }
  return { axis, width, height, tiles };
}

/**
 * The tiles' RGBA pixels (each read once: resvg's RenderedImage copies them out on every read) as one picture.
 * Bands of rows follow one another; strips of columns are interleaved row by row.
 */
export function stitchTiles(tiling: Tiling, pixels: readonly Buffer[]): Buffer {
  if (tiling.axis === "y") return Buffer.concat(pixels);
  const { width, height } = tiling;
  const out = Buffer.allocUnsafe(width * height * 4);
  for (const [i, tile] of tiling.tiles.entries()) {
    const strip = pixels[i];
    if (!strip) throw new Error(`tile ${i} is missing`);
    const stride = (tile.to - tile.from) * 4;
    for (let y = 0; y < height; y++) strip.copy(out, (y * width + tile.from) * 4, y * stride, (y + 1) * stride);
  }
  return out;
}

/** A connection's path keeping the end markers (at its first and last points) within `safe` along `axis`. */
function withNearMarkers(markup: string, axis: "x" | "y", safe: { lo: number; hi: number }): string {
  const ends = ENDS.exec(markup);
  if (!ends) return markup.replace(MARKERS, "");
  const k = axis === "x" ? 0 : 1;
  const first = Number(ends[1 + k]);
  const last = Number(ends[3 + k] ?? ends[1 + k]);
  const near = (v: number) => v >= safe.lo && v <= safe.hi;
  return markup.replace(MARKERS, (attr, which: string) => (near(which === "start" ? first : last) ? attr : ""));
}
