import {
  elementNotation,
  ICON_STROKE,
  type Icon,
  LINE_DASH,
  type LineDash,
  MARKERS,
  type MarkerKind,
  NOTATION_DEFAULTS,
} from "@ams/shared";
import { escapeXml } from "./escape.ts";

/**
 * Reusable definitions: one <g> per type icon (drawn with <use>) and one <marker> per end decoration and colour.
 * The markup is built once per type/marker and cached for the life of the process.
 */

const ink = NOTATION_DEFAULTS.ink;

function iconBody(icon: Icon): string {
  const out: string[] = [];
  for (const p of icon) {
    const paint = p.paint ?? "line";
    // "body" paths carry no fill: they inherit the fill of the <use> that places them, the element's colour.
    if (paint === "line") out.push(`<path d="${p.d}" fill="none"/>`);
    else if (paint === "ink") out.push(`<path d="${p.d}" fill="${ink}" stroke="none"/>`);
    else out.push(`<path d="${p.d}"/>`);
  }
  return out.join("");
}

const iconBodies = new Map<string, string>();

/** The <g> defining the icon of an element type, or "" for a type without icon. */
export function iconDef(type: string, id: string): string {
  let body = iconBodies.get(type);
  if (body === undefined) {
    body = iconBody(elementNotation(type).icon);
    iconBodies.set(type, body);
  }
  if (!body) return "";
  return `<g id="${escapeXml(id)}" stroke="${ink}" stroke-width="${ICON_STROKE}" stroke-linejoin="round" stroke-linecap="round">${body}</g>`;
}

/** A marker drawn in the line colour; orient auto-start-reverse turns it around at the source end. */
export function markerDef(kind: MarkerKind, color: string, id: string): string {
  const m = MARKERS[kind];
  const fill = m.fill === "line" ? color : m.fill === "background" ? NOTATION_DEFAULTS.background : "none";
  const s = m.size + 1;
  return (
    `<marker id="${escapeXml(id)}" viewBox="${-s} ${-s} ${2 * s} ${2 * s}" refX="0" refY="0" markerWidth="${2 * s}" ` +
    `markerHeight="${2 * s}" markerUnits="userSpaceOnUse" orient="auto-start-reverse">` +
    `<path d="${m.d}" fill="${fill}" stroke="${color}" stroke-width="1" stroke-linejoin="miter"/></marker>`
  );
}

/** Dash array for a line of the given width; null for a solid line. */
export function dashArray(dash: LineDash, lineWidth: number): string | null {
  const base = LINE_DASH[dash];
  if (!base || lineWidth === 1) return base;
  return base
    .split(" ")
    .map((v) => String(Math.round(Number(v) * lineWidth * 10) / 10))
    .join(" ");
}
