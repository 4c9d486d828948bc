import type { NodeStyle } from "@ams/db";
import {
  elementNotation,
  ICON_BOX,
  iconOrigin,
  NOTATION_DEFAULTS,
  PALETTE,
  rowInsets,
  type ShapeKind,
  shapeInsets,
  shapeOutline,
  TAB,
  tabWidth,
} from "@ams/shared";
import { extend, type Font, fontOf, type RenderContext, textMarkup } from "./context.ts";
import { colorOf, escapeXml, num, opacityOf, str } from "./escape.ts";
import { pluginIconMarkup } from "./plugin-icon.ts";
import type { Box } from "./route.ts";
import { prepareText, textWidth, wrapText } from "./text.ts";
import type { RenderElement, RenderNode } from "./types.ts";

const PAD_X = 5;
const PAD_Y = 3;
const ICON_MARGIN = 4;
const CONTAINER_HEADER = 20;

type Paint = { fill: string; fillOpacity?: number; stroke: string; strokeWidth: number; dash?: string };

function paintOf(style: NodeStyle | null | undefined, fill: string, stroke: string): Paint {
  const lw = style?.lineWidth;
  return {
    fill: colorOf(style?.fill) ?? fill,
    fillOpacity: opacityOf(style?.fill),
    stroke: colorOf(style?.line) ?? stroke,
    strokeWidth: lw !== undefined && Number.isFinite(lw) && lw >= 0 ? Math.min(lw, 20) : NOTATION_DEFAULTS.lineWidth,
  };
}

function shapeMarkup(kind: ShapeKind, b: Box, p: Paint): string {
  let attrs = `fill="${p.fill}" stroke="${p.stroke}"`;
  if (p.fillOpacity !== undefined) attrs += ` fill-opacity="${p.fillOpacity}"`;
  if (p.strokeWidth !== 1) attrs += ` stroke-width="${p.strokeWidth}"`;
  if (p.dash) attrs += ` stroke-dasharray="${p.dash}"`;
  return `<path class="shape" d="${shapeOutline(kind, b.x, b.y, b.w, b.h)}" ${attrs}/>`;
}

/** The text frame of a shape: below/above what its outline takes at the top and bottom, beside its icon. */
function frameOf(kind: ShapeKind, box: Box, icon: { left: number; bottom: number } | null): TextFrame {
  const inset = shapeInsets(kind, box.w, box.h);
  return {
    kind,
    box,
    y0: box.y + inset.top + PAD_Y,
    y1: box.y + box.h - inset.bottom - PAD_Y,
    iconLeft: icon ? icon.left : Number.POSITIVE_INFINITY,
    iconBottom: icon ? icon.bottom : Number.NEGATIVE_INFINITY,
  };
}

type TextFrame = {
  kind: ShapeKind;
  box: Box;
  /** Vertical room for text (absolute y). */
  y0: number;
  y1: number;
  /** Left edge of the icon and its bottom; lines beside it stop short of it. */
  iconLeft: number;
  iconBottom: number;
};

/**
 * Wraps text centred in a shape. Each line is as wide as the shape is at its height (minus padding), and stops
 * short of the icon when its glyphs reach up beside it. Vertically centred unless `top`. Where lines fall depends
 * on how many there are, so the count is assumed k = 1, 2, ... until the text fits in k lines.
 */
function centredText(text: string, f: TextFrame, font: Font, top: boolean): string {
  const b = f.box;
  const height = f.y1 - f.y0;
  const lh = font.lineHeight;
  if (b.w < font.fontPx || height < font.fontPx * 0.8) return "";
  const maxLines = Math.max(1, Math.floor(height / lh));
  const topFor = (count: number) => (top ? f.y0 : f.y0 + Math.max(0, (height - count * lh) / 2));
  /** Left edge, right edge and the shape's own centre at line i of a block starting at y. */
  const span = (y: number, i: number): [number, number, number] => {
    const glyphTop = y + i * lh + lh * 0.25;
    const glyphBottom = y + (i + 1) * lh - lh * 0.15;
    const inset = rowInsets(f.kind, b.w, b.h, glyphTop - b.y, glyphBottom - b.y);
    const left = b.x + inset.left + PAD_X;
    let right = b.x + b.w - inset.right - PAD_X;
    const centre = (left + right) / 2;
    if (glyphTop < f.iconBottom) right = Math.min(right, f.iconLeft - 2);
    return [left, Math.max(right, left + font.fontPx * 3), centre];
  };
  const prepared = prepareText(text, font);
  let lines: string[] = [];
  let y = f.y0;
  for (let k = top ? maxLines : 1; k <= maxLines; k++) {
    y = topFor(k);
    const from = y;
    lines = wrapText(
      prepared,
      (i) => {
        const [l, r] = span(from, i);
        return r - l;
      },
      maxLines,
      font,
    );
    if (lines.length <= k) break;
  }
  let skip = 0;
  while (skip < lines.length - 1 && lines[skip] === "") skip++;
  const shown = skip ? lines.slice(skip) : lines;
  // Centred on the shape; a line beside the icon that would run under it moves left just enough.
  const xOf = (i: number) => {
    const [l, r, centre] = span(y, i + skip);
    const half = textWidth(shown[i] ?? "", font.fontPx, font.bold) / 2;
    return Math.max(l + half, Math.min(centre, r - half));
  };
  return textMarkup(shown, xOf, y + skip * lh, font, "middle", "label");
}

function iconMarkup(
  ctx: RenderContext,
  el: RenderElement,
  kind: ShapeKind,
  b: Box,
  fill: string,
): { bottom: number; left: number; markup: string } | null {
  const type = el.type;
  const size = Math.min(ICON_BOX, Math.max(8, b.h * 0.3));
  if (b.w < size * 2.5 || b.h < size + 4) return null;
  const at = iconOrigin(kind, b.x, b.y, b.w, b.h, size, ICON_MARGIN);
  const value = str(el.iconPack);
  const plugin = value ? ctx.pluginIcon(value) : null;
  let markup: string;
  if (plugin) {
    markup = pluginIconMarkup(plugin, at.x, at.y, size);
  } else {
    if (elementNotation(type).icon.length === 0) return null;
    ctx.icons.add(type);
    const scale = size === ICON_BOX ? "" : ` scale(${num(size / ICON_BOX)})`;
    markup = `<use class="icon" href="#${escapeXml(ctx.prefix)}i-${escapeXml(type)}" transform="translate(${num(at.x)} ${num(at.y)})${scale}" fill="${fill}"/>`;
  }
  return { bottom: at.y + size + 1, left: at.x, markup };
}

function elementNode(
  ctx: RenderContext,
  node: RenderNode,
  el: RenderElement,
  b: Box,
  hasChildren: boolean,
  out: string[],
): void {
  const notation = elementNotation(el.type);
  const kind = notation.shape;
  const font = fontOf(node.style?.font);
  const name = str(el.name) || str(node.label);
  if (kind === "junction") {
    const fill = notation.hollow ? NOTATION_DEFAULTS.background : (colorOf(node.style?.fill) ?? NOTATION_DEFAULTS.ink);
    out.push(shapeMarkup(kind, b, { ...paintOf(node.style, fill, NOTATION_DEFAULTS.ink), fill }));
    return;
  }
  const paint = paintOf(node.style, PALETTE[notation.palette], NOTATION_DEFAULTS.nodeLine);
  const heat = ctx.heat?.get(node.id);
  if (heat) {
    paint.fill = heat;
    delete paint.fillOpacity;
  }
  if (kind === "tab") {
    paint.dash = "6 3";
    out.push(shapeMarkup(kind, b, paint));
    const tabH = Math.min(TAB.height, b.h / 2);
    const room = tabWidth(b.w) - 2 * PAD_X;
    const lines = wrapText(name, () => room, 1, font);
    out.push(textMarkup(lines, b.x + PAD_X, b.y + (tabH - font.lineHeight) / 2, font, "start", "label"));
    return;
  }
  out.push(shapeMarkup(kind, b, paint));
  const icon = iconMarkup(ctx, el, kind, b, paint.fill);
  if (icon) out.push(icon.markup);
  if (name) out.push(centredText(name, frameOf(kind, b, icon), font, hasChildren));
}

function labelNode(node: RenderNode, b: Box, out: string[]): void {
  const style = node.style;
  const fill = colorOf(style?.fill) ?? "none";
  const stroke = colorOf(style?.line) ?? "none";
  out.push(shapeMarkup("rect", b, { ...paintOf(style, fill, stroke), fill, stroke }));
  const font = fontOf(style?.font);
  const label = str(node.label);
  if (label) out.push(centredText(label, frameOf("rect", b, null), font, false));
}

function containerNode(node: RenderNode, b: Box, out: string[]): void {
  const paint = paintOf(node.style, NOTATION_DEFAULTS.container, NOTATION_DEFAULTS.nodeLine);
  out.push(shapeMarkup("rect", b, paint));
  const header = Math.min(CONTAINER_HEADER, b.h);
  out.push(
    `<path class="header" d="M${num(b.x)} ${num(b.y + header)}H${num(b.x + b.w)}" stroke="${paint.stroke}" fill="none"/>`,
  );
  const font = fontOf(node.style?.font);
  const lines = wrapText(str(node.label), () => b.w - 2 * PAD_X, 1, font);
  out.push(textMarkup(lines, b.x + PAD_X, b.y + (header - font.lineHeight) / 2, font, "start", "label"));
}

/** One node: a <g class="node"> holding exactly one `.shape`, then its icon and text. */
export function renderNode(ctx: RenderContext, node: RenderNode, b: Box, hasChildren: boolean): void {
  const out = ctx.out;
  const kindAttr = node.element ? ` data-type="${escapeXml(node.element.type)}"` : "";
  out.push(`<g class="node" data-id="${escapeXml(node.id)}" data-kind="${escapeXml(node.kind)}"${kindAttr}>`);
  if (node.kind === "element" && node.element) elementNode(ctx, node, node.element, b, hasChildren, out);
  else if (node.kind === "label") labelNode(node, b, out);
  else if (node.kind === "container") containerNode(node, b, out);
  else {
    // An element node whose element is gone, or a kind we do not know: a plain box with whatever label it has.
    out.push(shapeMarkup("rect", b, paintOf(node.style, PALETTE.other, NOTATION_DEFAULTS.nodeLine)));
    const label = str(node.label);
    if (label) out.push(centredText(label, frameOf("rect", b, null), fontOf(node.style?.font), hasChildren));
  }
  out.push("</g>");
  extend(ctx, b.x, b.y, b.x + b.w, b.y + b.h);
}
