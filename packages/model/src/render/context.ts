import type { FontStyle } from "@ams/db";
import { NOTATION_DEFAULTS } from "@ams/shared";
import { colorOf, escapeXml, fontFamilyOf, num } from "./escape.ts";
import type { PluginIcon } from "./plugin-icon.ts";
import type { TextMetrics } from "./text.ts";

/** State of one render: the output buffer, the definitions used so far and the drawing's extent. */
export type RenderContext = {
  prefix: string;
  out: string[];
  /** Element types whose icon definition is referenced. */
  icons: Set<string>;
  /** Marker id -> definition. */
  markers: Map<string, string>;
  bounds: { minX: number; minY: number; maxX: number; maxY: number };
  pluginIcon: (value: string) => PluginIcon;
  /** Heatmap fills by node id, drawn instead of the notation's and the node's own fill. */
  heat?: ReadonlyMap<string, string>;
};

export function extend(ctx: RenderContext, x0: number, y0: number, x1: number, y1: number): void {
  const b = ctx.bounds;
  if (x0 < b.minX) b.minX = x0;
  if (y0 < b.minY) b.minY = y0;
  if (x1 > b.maxX) b.maxX = x1;
  if (y1 > b.maxY) b.maxY = y1;
}

/** A resolved font: metrics for wrapping and the attributes that draw it. */
export type Font = TextMetrics & { attrs: string; lineHeight: number };

const PX_PER_PT = 4 / 3;
const fontCache = new Map<string, Font>();

/**
 * Font of a node or connection. The exchange format gives sizes in points (9pt is Archi's default, 12px);
 * colour, bold, italic, underline and strike-through come from the model's style.
 */
export function fontOf(font: FontStyle | null | undefined): Font {
  if (!font || typeof font !== "object") font = undefined;
  const key = font ? JSON.stringify(font) : "";
  let f = fontCache.get(key);
  if (f) return f;
  // Style columns are JSON: anything of the wrong type counts as not set.
  const size = typeof font?.size === "number" && Number.isFinite(font.size) && font.size > 0 ? font.size : undefined;
  const pt = size ? Math.min(size, 72) : NOTATION_DEFAULTS.fontSizePt;
  const fontPx = Math.round(pt * PX_PER_PT * 10) / 10;
  const style = typeof font?.style === "string" ? font.style.toLowerCase() : "";
  const name = typeof font?.name === "string" ? font.name : undefined;
  const bold = style.includes("bold");
  const attrs: string[] = [`fill="${colorOf(font?.color) ?? NOTATION_DEFAULTS.text}"`];
  if (name) attrs.push(`font-family="${escapeXml(fontFamilyOf(name, NOTATION_DEFAULTS.fontFamily))}"`);
  if (fontPx !== 12) attrs.push(`font-size="${num(fontPx)}"`);
  if (bold) attrs.push(`font-weight="bold"`);
  if (style.includes("italic")) attrs.push(`font-style="italic"`);
  const decorations = [style.includes("underline") && "underline", style.includes("strike") && "line-through"].filter(
    Boolean,
  );
  if (decorations.length) attrs.push(`text-decoration="${decorations.join(" ")}"`);
  f = { fontPx, bold, attrs: attrs.join(" "), lineHeight: Math.round(fontPx * 1.25 * 10) / 10 };
  if (fontCache.size < 1000) fontCache.set(key, f);
  return f;
}

/**
 * A block of lines as one <text>, each line a <tspan> at its own baseline.
 * `x` is the centre (anchor "middle") or the left edge (anchor "start"), for all lines or per line.
 */
export function textMarkup(
  lines: readonly string[],
  x: number | ((line: number) => number),
  top: number,
  font: Font,
  anchor: "middle" | "start",
  cls: string,
  extra = "",
): string {
  if (lines.length === 0) return "";
  const parts: string[] = [
    `<text class="${cls}" ${font.attrs}${anchor === "middle" ? ' text-anchor="middle"' : ""}${extra}>`,
  ];
  const xs = typeof x === "number" ? num(x) : "";
  // Baseline within each line box: centred cap height, roughly.
  const first = top + (font.lineHeight - font.fontPx) / 2 + font.fontPx * 0.82;
  for (const [i, line] of lines.entries()) {
    const lx = typeof x === "number" ? xs : num(x(i));
    parts.push(`<tspan x="${lx}" y="${num(first + i * font.lineHeight)}">${escapeXml(line)}</tspan>`);
  }
  parts.push("</text>");
  return parts.join("");
}
