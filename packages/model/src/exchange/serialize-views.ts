import type { Bendpoint, FontStyle, Rgba } from "@ams/db";
import type { ConnectionRow, ConnectionStyleExt, NodeStyleExt, ViewNodeRow, ViewRow } from "./document.ts";
import { FONT_STYLES } from "./format.ts";
import {
  clampInt,
  escapeAttr,
  groupBy,
  indent,
  inOrder,
  type PropertiesByOwner,
  spill,
  writeLangs,
  writeProperties,
} from "./xml-writer.ts";

const NODE_TYPES: Record<string, string> = { element: "Element", label: "Label", container: "Container" };

/**
 * The <view>s of <views><diagrams> (the writer opens and closes the list): each view with its nodes (nested by
 * parentId) and connections, in ord order. `views` are in model order; `nodes` and `connections` hold at least all
 * of theirs.
 */
export function writeViews(
  out: string[],
  chunks: string[],
  views: ViewRow[],
  nodes: ViewNodeRow[],
  connections: ConnectionRow[],
  props: PropertiesByOwner,
): void {
  const nodesByView = groupBy(nodes, (n) => n.viewId);
  const connectionsByView = groupBy(connections, (c) => c.viewId);
  const i3 = indent(3);
  const i4 = indent(4);
  for (const v of views) {
    out.push(i3, '<view identifier="', escapeAttr(v.id), '" xsi:type="Diagram"');
    if (v.viewpoint != null) out.push(' viewpoint="', escapeAttr(v.viewpoint), '"');
    out.push(">");
    writeLangs(out, i4, "name", v.name, v.i18n?.name, "always");
    writeLangs(out, i4, "documentation", v.documentation, v.i18n?.documentation, "set");
    writeProperties(out, 4, props.get(`view\u0000${v.id}`));
    const viewNodes = nodesByView.get(v.id);
    if (viewNodes !== undefined) {
      const children = groupBy(inOrder(viewNodes), (n) => n.parentId);
      for (const n of children.get(null) ?? []) {
        writeNode(out, children, n, 4);
        spill(out, chunks);
      }
    }
    for (const c of inOrder(connectionsByView.get(v.id) ?? [])) {
      writeConnection(out, c);
      spill(out, chunks);
    }
    out.push(i3, "</view>");
  }
}

function writeNode(out: string[], children: Map<string | null, ViewNodeRow[]>, n: ViewNodeRow, level: number): void {
  const ind = indent(level);
  const inner = indent(level + 1);
  const kids = children.get(n.id);
  // Shapes the XSD cannot carry are written as a Container so the export stays valid and nothing is lost: a Label
  // with nested nodes, an element node without its element, an unknown kind.
  let type = NODE_TYPES[n.kind] ?? "Container";
  if ((type === "Label" && kids !== undefined) || (type === "Element" && n.elementId === null)) type = "Container";
  const style = n.style as NodeStyleExt | null;
  out.push(ind, '<node identifier="', escapeAttr(n.id), '"');
  if (type === "Element" && n.elementId !== null) out.push(' elementRef="', escapeAttr(n.elementId), '"');
  out.push(' xsi:type="', type, '" x="', String(clampInt(n.x, 0, Number.MAX_SAFE_INTEGER)));
  out.push('" y="', String(clampInt(n.y, 0, Number.MAX_SAFE_INTEGER)), '" w="');
  out.push(
    String(clampInt(n.w, 1, Number.MAX_SAFE_INTEGER)),
    '" h="',
    String(clampInt(n.h, 1, Number.MAX_SAFE_INTEGER)),
  );
  out.push('"');
  if (type === "Label" && style !== null) {
    if (style.conceptRef !== undefined) out.push(' conceptRef="', escapeAttr(style.conceptRef), '"');
    if (style.xpathPart !== undefined) out.push(' xpathPart="', escapeAttr(style.xpathPart), '"');
  }
  const start = out.length;
  out.push(">");
  writeLangs(out, inner, "label", n.label, n.i18n?.label, "set");
  writeLangs(out, inner, "documentation", n.documentation, n.i18n?.documentation, "set");
  if (style !== null) {
    writeStyle(out, style, level + 1);
    for (const ref of style.viewRefs ?? []) out.push(inner, '<viewRef ref="', escapeAttr(ref), '"/>');
  }
  if (kids !== undefined) for (const c of kids) writeNode(out, children, c, level + 1);
  if (out.length === start + 1) out[start] = "/>";
  else out.push(ind, "</node>");
}

function writeConnection(out: string[], c: ConnectionRow): void {
  const style = c.style as ConnectionStyleExt | null;
  const relationshipRef = c.kind === "relationship" ? c.relationshipId : null;
  const isRelationship = relationshipRef !== null;
  const type = isRelationship ? (style?.nesting ? "NestingRelationship" : "Relationship") : "Line";
  out.push(indent(4), '<connection identifier="', escapeAttr(c.id), '"');
  if (relationshipRef !== null) out.push(' relationshipRef="', escapeAttr(relationshipRef), '"');
  out.push(' xsi:type="', type, '"');
  if (c.sourceId !== "") out.push(' source="', escapeAttr(c.sourceId), '"');
  if (c.targetId !== "") out.push(' target="', escapeAttr(c.targetId), '"');
  const start = out.length;
  out.push(">");
  const inner = indent(5);
  writeLangs(out, inner, "label", c.label, c.i18n?.label, "set");
  writeLangs(out, inner, "documentation", c.documentation, c.i18n?.documentation, "set");
  if (style !== null) {
    writeStyle(out, style, 5);
    for (const ref of style.viewRefs ?? []) out.push(inner, '<viewRef ref="', escapeAttr(ref), '"/>');
    if (style.sourceAttachment) writePoint(out, inner, "sourceAttachment", style.sourceAttachment);
  }
  for (const b of c.bendpoints ?? []) writePoint(out, inner, "bendpoint", b);
  if (style?.targetAttachment) writePoint(out, inner, "targetAttachment", style.targetAttachment);
  if (out.length === start + 1) out[start] = "/>";
  else out.push(indent(4), "</connection>");
}

function writePoint(out: string[], ind: string, tag: string, p: Bendpoint): void {
  const x = clampInt(p.x, 0, Number.MAX_SAFE_INTEGER);
  out.push(ind, "<", tag, ' x="', String(x), '" y="', String(clampInt(p.y, 0, Number.MAX_SAFE_INTEGER)), '"/>');
}

function writeStyle(out: string[], style: NodeStyleExt | ConnectionStyleExt, level: number): void {
  const fill = "fill" in style ? style.fill : undefined;
  if (fill === undefined && style.line === undefined && style.font === undefined && style.lineWidth === undefined) {
    return;
  }
  const ind = indent(level + 1);
  out.push(indent(level), "<style");
  if (style.lineWidth !== undefined) out.push(' lineWidth="', String(clampInt(style.lineWidth, 1, 1000)), '"');
  out.push(">");
  if (fill !== undefined) writeColor(out, ind, "fillColor", fill);
  if (style.line !== undefined) writeColor(out, ind, "lineColor", style.line);
  if (style.font !== undefined) writeFont(out, level + 1, style.font);
  out.push(indent(level), "</style>");
}

function writeColor(out: string[], ind: string, tag: string, c: Rgba): void {
  out.push(ind, "<", tag, ' r="', String(clampInt(c.r, 0, 255)), '" g="', String(clampInt(c.g, 0, 255)));
  out.push('" b="', String(clampInt(c.b, 0, 255)), '"');
  if (c.a !== undefined) out.push(' a="', String(clampInt(c.a, 0, 100)), '"');
  out.push("/>");
}

function writeFont(out: string[], level: number, font: FontStyle): void {
  out.push(indent(level), "<font");
  if (font.name !== undefined) out.push(' name="', escapeAttr(font.name), '"');
  if (font.size !== undefined && Number.isFinite(font.size)) {
    // The XSD allows sizes >= 1 in steps of 0.5.
    const size = Math.max(1, Math.round(font.size * 2) / 2);
    out.push(' size="', Number.isInteger(size) ? String(size) : size.toFixed(1), '"');
  }
  if (font.style !== undefined) {
    const style = font.style.split(/\s+/).filter((s) => FONT_STYLES.has(s));
    if (style.length > 0) out.push(' style="', style.join(" "), '"');
  }
  if (font.color === undefined) out.push("/>");
  else {
    out.push(">");
    writeColor(out, indent(level + 1), "color", font.color);
    out.push(indent(level), "</font>");
  }
}
