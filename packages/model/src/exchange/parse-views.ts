import type { Bendpoint } from "@ams/db";
import type { ConnectionStyleExt, NodeStyleExt } from "./document.ts";
import {
  addError,
  addWarning,
  child,
  lineOf,
  type ParseContext,
  readLang,
  readProperties,
  register,
  withLangs,
  xsiTypeOf,
} from "./parse-context.ts";
import { readInt, readPoint, readStyle } from "./parse-style.ts";
import { attr, type XmlNode } from "./xml-reader.ts";

/**
 * One view being read. Its nodes and connections are registered with marks naming the view, so a connection end
 * is checked to stay inside its view with the one identifier map (no second set per view).
 */
type ViewScope = { viewId: string; nodeMark: string; connectionMark: string; nodeOrd: number };

const NODE_KINDS: Record<string, string> = { Element: "element", Label: "label", Container: "container" };

export function readViews(ctx: ParseContext, node: XmlNode): void {
  for (const c of node.children ?? []) {
    if (c.name === ctx.tag.viewpoints) {
      addWarning(ctx, lineOf(ctx, c), "viewpoint definitions (<viewpoints>) are not supported and were dropped");
    } else if (c.name === ctx.tag.diagrams) {
      for (const v of c.children ?? []) if (v.name === ctx.tag.view) readView(ctx, v);
    }
  }
}

export function readView(ctx: ParseContext, v: XmlNode): void {
  const T = ctx.tag;
  const xsiType = xsiTypeOf(ctx, v);
  const id = register(ctx, v, "#view", "a view");
  if (id === null) return;
  if (xsiType !== undefined && xsiType !== "Diagram") {
    addError(ctx, `identifier ${id}`, `unsupported view type '${xsiType}' (only Diagram views exist in ArchiMate 3.1)`);
    return;
  }
  const children = v.children;
  const name = readLang(ctx, children, T.name) ?? "";
  let i18n = withLangs(null, "name", ctx.langs);
  const documentation = readLang(ctx, children, T.documentation);
  i18n = withLangs(i18n, "documentation", ctx.langs);
  if (attr(v, "viewpointRef") !== undefined) {
    addWarning(ctx, `identifier ${id}`, "the reference to a custom viewpoint (viewpointRef) was dropped");
  }
  const views = ctx.doc.views;
  views.push({ id, ord: views.length, name, viewpoint: attr(v, "viewpoint") ?? null, documentation, i18n });
  if (children === null) return;
  readProperties(ctx, child(children, T.properties), "view", id);
  const scope: ViewScope = { viewId: id, nodeMark: `#node@${id}`, connectionMark: `#connection@${id}`, nodeOrd: 0 };
  for (const c of children) if (c.name === T.node) readNode(ctx, c, scope, null);
  const connections = ctx.doc.connections;
  const first = connections.length;
  for (const c of children) if (c.name === T.connection) readConnection(ctx, c, scope, connections.length - first);
  for (let k = first; k < connections.length; k++) {
    const c = connections[k];
    if (c === undefined) continue;
    if (c.sourceId !== "" && !inView(ctx, scope, c.sourceId)) danglingEnd(ctx, c.id, c.sourceId, id);
    if (c.targetId !== "" && !inView(ctx, scope, c.targetId)) danglingEnd(ctx, c.id, c.targetId, id);
  }
}

function inView(ctx: ParseContext, scope: ViewScope, id: string): boolean {
  const mark = ctx.ids.get(id);
  return mark === scope.nodeMark || mark === scope.connectionMark || mark === "#unknown";
}

function danglingEnd(ctx: ParseContext, connection: string, end: string, view: string): void {
  addError(ctx, `identifier ${connection}`, `connection end '${end}' is not a node or connection of view ${view}`);
}

function readNode(ctx: ParseContext, n: XmlNode, scope: ViewScope, parentId: string | null): void {
  const T = ctx.tag;
  const xsiType = xsiTypeOf(ctx, n);
  const id = register(ctx, n, scope.nodeMark, "a view node");
  if (id === null) return;
  const kind = xsiType === undefined ? undefined : NODE_KINDS[xsiType];
  if (kind === undefined) {
    addError(
      ctx,
      `identifier ${id}`,
      xsiType === undefined ? "the node has no xsi:type" : `unknown node type '${xsiType}'`,
    );
    return;
  }
  let elementId: string | null = null;
  if (kind === "element") {
    elementId = attr(n, "elementRef") ?? null;
    if (elementId === null) addError(ctx, `identifier ${id}`, "an Element node needs an elementRef");
  }
  const children = n.children;
  const label = readLang(ctx, children, T.label);
  let i18n = withLangs(null, "label", ctx.langs);
  const documentation = readLang(ctx, children, T.documentation);
  i18n = withLangs(i18n, "documentation", ctx.langs);
  let style: NodeStyleExt | null = readStyle(ctx, child(children, T.style));
  const viewRefs = readViewRefs(ctx, children);
  if (viewRefs !== undefined) {
    style ??= {};
    style.viewRefs = viewRefs;
  }
  if (kind === "label") {
    const conceptRef = attr(n, "conceptRef");
    if (conceptRef !== undefined) {
      style ??= {};
      style.conceptRef = conceptRef;
    }
    const xpathPart = attr(n, "xpathPart");
    if (xpathPart !== undefined) {
      style ??= {};
      style.xpathPart = xpathPart;
    }
  }
  ctx.doc.nodes.push({
    id,
    viewId: scope.viewId,
    parentId,
    ord: scope.nodeOrd++,
    kind,
    elementId,
    x: readInt(attr(n, "x"), 0),
    y: readInt(attr(n, "y"), 0),
    w: readInt(attr(n, "w"), 120),
    h: readInt(attr(n, "h"), 55),
    label,
    documentation,
    i18n,
    style,
  });
  if (children === null) return;
  for (const c of children) {
    if (c.name !== T.node) continue;
    if (kind === "label") {
      addError(ctx, `identifier ${id}`, "a Label node cannot contain nodes");
      return;
    }
    readNode(ctx, c, scope, id);
  }
}

function readConnection(ctx: ParseContext, c: XmlNode, scope: ViewScope, ord: number): void {
  const T = ctx.tag;
  const xsiType = xsiTypeOf(ctx, c);
  const id = register(ctx, c, scope.connectionMark, "a connection");
  if (id === null) return;
  const isRelationship = xsiType === "Relationship" || xsiType === "NestingRelationship";
  if (!isRelationship && xsiType !== "Line") {
    const message = xsiType === undefined ? "the connection has no xsi:type" : `unknown connection type '${xsiType}'`;
    addError(ctx, `identifier ${id}`, message);
    return;
  }
  const relationshipId = isRelationship ? (attr(c, "relationshipRef") ?? null) : null;
  const sourceId = attr(c, "source") ?? "";
  const targetId = attr(c, "target") ?? "";
  if (isRelationship && (relationshipId === null || sourceId === "" || targetId === "")) {
    addError(ctx, `identifier ${id}`, "a Relationship connection needs relationshipRef, source and target");
  }
  const children = c.children;
  const label = readLang(ctx, children, T.label);
  let i18n = withLangs(null, "label", ctx.langs);
  const documentation = readLang(ctx, children, T.documentation);
  i18n = withLangs(i18n, "documentation", ctx.langs);
  let style: ConnectionStyleExt | null = readStyle(ctx, child(children, T.style));
  // Rare extras (nesting, view references, attachments) go to the style JSON: there is no column for them.
  if (xsiType === "NestingRelationship") {
    style ??= {};
    style.nesting = true;
  }
  let bendpoints: Bendpoint[] | null = null;
  if (children !== null) {
    const viewRefs = readViewRefs(ctx, children);
    if (viewRefs !== undefined) {
      style ??= {};
      style.viewRefs = viewRefs;
    }
    for (const b of children) {
      if (b.name === T.bendpoint) {
        bendpoints ??= [];
        bendpoints.push(readPoint(b));
      } else if (b.name === T.sourceAttachment) {
        style ??= {};
        style.sourceAttachment = readPoint(b);
      } else if (b.name === T.targetAttachment) {
        style ??= {};
        style.targetAttachment = readPoint(b);
      }
    }
  }
  ctx.doc.connections.push({
    id,
    viewId: scope.viewId,
    ord,
    kind: isRelationship ? "relationship" : "line",
    relationshipId,
    sourceId,
    targetId,
    bendpoints,
    label,
    documentation,
    i18n,
    style,
  });
}

function readViewRefs(ctx: ParseContext, children: XmlNode[] | null): string[] | undefined {
  let refs: string[] | undefined;
  for (const c of children ?? []) {
    if (c.name !== ctx.tag.viewRef) continue;
    const ref = attr(c, "ref");
    if (ref === undefined) addError(ctx, lineOf(ctx, c), "a viewRef needs a ref");
    else {
      refs ??= [];
      refs.push(ref);
    }
  }
  return refs;
}
