import type { Bendpoint, FontStyle, Rgba } from "@ams/db";
import type { NodeStyleExt } from "./document.ts";
import { child, type ParseContext } from "./parse-context.ts";
import { attr, type XmlNode } from "./xml-reader.ts";

export function readInt(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n) : fallback;
}

export const readPoint = (node: XmlNode): Bendpoint => ({
  x: readInt(attr(node, "x"), 0),
  y: readInt(attr(node, "y"), 0),
});

/** <style>: fill and line colours (with alpha), font (name, size, style, colour) and line width; null if empty. */
export function readStyle(ctx: ParseContext, node: XmlNode | null): NodeStyleExt | null {
  if (node === null) return null;
  const T = ctx.tag;
  const style: NodeStyleExt = {};
  for (const c of node.children ?? []) {
    if (c.name === T.fillColor) style.fill = readColor(c);
    else if (c.name === T.lineColor) style.line = readColor(c);
    else if (c.name === T.font) style.font = readFont(ctx, c);
  }
  const lineWidth = attr(node, "lineWidth");
  if (lineWidth !== undefined && Number.isFinite(Number(lineWidth))) style.lineWidth = Number(lineWidth);
  const empty = style.fill === undefined && style.line === undefined && style.font === undefined;
  return empty && style.lineWidth === undefined ? null : style;
}

function readColor(node: XmlNode): Rgba {
  const color: Rgba = {
    r: readInt(attr(node, "r"), 0),
    g: readInt(attr(node, "g"), 0),
    b: readInt(attr(node, "b"), 0),
  };
  const a = attr(node, "a");
  if (a !== undefined) color.a = readInt(a, 100);
  return color;
}

function readFont(ctx: ParseContext, node: XmlNode): FontStyle {
  const font: FontStyle = {};
  const name = attr(node, "name");
  if (name !== undefined) font.name = name;
  const size = attr(node, "size");
  if (size !== undefined && Number.isFinite(Number(size))) font.size = Number(size);
  const style = attr(node, "style");
  if (style !== undefined) font.style = style;
  const color = child(node.children, ctx.tag.color);
  if (color !== null) font.color = readColor(color);
  return font;
}
