import type { I18n } from "@ams/db";
import { isElementType, mustExist, resolveElementType, resolveRelationshipType } from "@ams/shared";
import { emptyDocument, type ModelDocument, type Warning } from "./document.ts";
import { ACCESS_TYPES, ARCHIMATE_2_NS, ARCHIMATE_NS, DATA_TYPES, XSI_NS } from "./format.ts";
import {
  addError,
  addWarning,
  child,
  type ParseContext,
  RELATIONSHIP_MARK,
  readLang,
  readProperties,
  refused,
  register,
  tagNames,
  withLangs,
  xsiTypeOf,
} from "./parse-context.ts";
import { readFolder } from "./parse-folders.ts";
import { readMetadata } from "./parse-metadata.ts";
import { resolveReferences } from "./parse-refs.ts";
import { readView, readViews } from "./parse-views.ts";
import { attr, lineAt, readXml, type XmlNode, XmlSyntaxError } from "./xml-reader.ts";

export type ParseOptions = {
  /** Deepest element nesting accepted (default 200); deeper input is refused before it can exhaust anything. */
  maxDepth?: number;
  /**
   * Refuse relationships the ArchiMate 3.1 table forbids instead of importing them with a warning. Off by default:
   * real tool exports (Sparx EA among them) contain such relationships and users expect their files to open.
   */
  strictRelationships?: boolean;
};

/**
 * Reads an Open Exchange (ArchiMate 3.x) document into database-shaped rows. Pure: no I/O. Refuses with
 * AppError("VALIDATION") listing every problem found (up to 50), each with `line N` or `identifier X`.
 */
export function parseExchange(xml: string, opts: ParseOptions = {}): { document: ModelDocument; warnings: Warning[] } {
  const state: { ctx?: ParseContext } = {};
  // readXml calls onRoot before anything closes, and refuses a document without a root element.
  const opened = () => mustExist(state.ctx, "The parse context of the root element");
  let root: XmlNode;
  try {
    root = readXml(xml, {
      maxDepth: opts.maxDepth ?? 200,
      onRoot: (node) => {
        state.ctx = openModel(xml, node, opts);
      },
      onClose: (node, parent) => consumeItem(opened(), node, parent),
    });
  } catch (err) {
    if (err instanceof XmlSyntaxError) {
      const path = `line ${lineAt(xml, err.pos)}`;
      const message = err.message.startsWith("not an XML document")
        ? err.message
        : `not well-formed XML: ${err.message}`;
      throw refused([{ path, message }]);
    }
    throw err;
  }
  const ctx = opened();
  readModel(ctx, root);
  resolveReferences(ctx);
  if (ctx.errors.length > 0) throw refused(ctx.errors);
  if (ctx.droppedWarnings > 0) {
    ctx.warnings.push({ path: "model", message: `${ctx.droppedWarnings} more warnings were not listed` });
  }
  return { document: ctx.doc, warnings: ctx.warnings };
}

/** The big collections are mapped as each item closes (see readXml's onClose); true means consumed. */
function consumeItem(ctx: ParseContext, node: XmlNode, parent: XmlNode): boolean {
  const T = ctx.tag;
  const p = parent.name;
  if (p === T.elements) {
    if (node.name === T.element) readElement(ctx, node);
  } else if (p === T.relationships) {
    if (node.name === T.relationship) readRelationship(ctx, node);
  } else if (p === T.diagrams) {
    if (node.name === T.view) readView(ctx, node);
  } else if (p === T.organizations) {
    if (node.name === T.item) readFolder(ctx, node, null, ctx.folderOrd++);
  } else if (p === T.propertyDefinitions) {
    if (node.name === T.propertyDefinition) readPropertyDefinition(ctx, node);
  } else return false;
  return true;
}

function openModel(src: string, root: XmlNode, opts: ParseOptions): ParseContext {
  const namespaces = new Map<string, string>();
  for (let k = 0; k < root.attrs.length; k += 2) {
    const name = root.attrs[k];
    const value = root.attrs[k + 1];
    if (name === undefined || value === undefined) continue;
    if (name === "xmlns") namespaces.set("", value);
    else if (name.startsWith("xmlns:")) namespaces.set(name.slice(6), value);
  }
  const colon = root.name.indexOf(":");
  const prefix = colon === -1 ? "" : root.name.slice(0, colon);
  const local = colon === -1 ? root.name : root.name.slice(colon + 1);
  const ns = namespaces.get(prefix);
  const at = { path: "line " + lineAt(src, root.pos), message: "" };
  const where = [at];
  if (ns !== undefined && ARCHIMATE_2_NS.has(ns)) {
    at.message = `ArchiMate 2.1 exchange files (namespace ${ns}) are not supported: export the model in the ArchiMate 3.1 exchange format`;
    throw refused(where);
  }
  if (local !== "model" || ns !== ARCHIMATE_NS) {
    const found = ns
      ? `<${root.name}> in namespace ${ns}`
      : prefix
        ? `<${root.name}> whose prefix '${prefix}' is not declared`
        : `<${root.name}> without a namespace (xmlns is missing)`;
    at.message = `not an ArchiMate 3.x exchange file: the root element must be <model> in namespace ${ARCHIMATE_NS}; found ${found}`;
    throw refused(where);
  }
  let xsiPrefix = "xsi";
  for (const [p, uri] of namespaces) if (uri === XSI_NS && p !== "") xsiPrefix = p;
  const ctx: ParseContext = {
    src,
    tag: tagNames(prefix === "" ? "" : `${prefix}:`),
    xsiType: `${xsiPrefix}:type`,
    namespaces,
    doc: emptyDocument(),
    ids: new Map(),
    errors: [],
    warnings: [],
    droppedWarnings: 0,
    strictRelationships: opts.strictRelationships ?? false,
    langs: undefined,
    newlines: null,
    folderOrd: 0,
  };
  const identifier = attr(root, "identifier");
  if (identifier !== undefined && register(ctx, root, "#model", "the model") !== null)
    ctx.doc.model.identifier = identifier;
  return ctx;
}

/** Model-level content, once the root closed (the collections were consumed item by item). */
function readModel(ctx: ParseContext, root: XmlNode): void {
  const T = ctx.tag;
  const model = ctx.doc.model;
  const children = root.children;
  model.name = readLang(ctx, children, T.name) ?? "";
  let i18n = withLangs(null, "name", ctx.langs);
  const documentation = readLang(ctx, children, T.documentation);
  if (documentation !== null) model.documentation = documentation;
  i18n = withLangs(i18n, "documentation", ctx.langs);
  if (i18n !== null) model.i18n = i18n;
  const version = attr(root, "version");
  if (version !== undefined) model.version = version;
  for (const c of children ?? []) {
    if (c.name === T.properties) readProperties(ctx, c, "model", "");
    else if (c.name === T.metadata) readMetadata(ctx, c, model);
    else if (c.name === T.views) readViews(ctx, c);
  }
}

function readElement(ctx: ParseContext, e: XmlNode): void {
  const T = ctx.tag;
  const raw = xsiTypeOf(ctx, e);
  const type = raw === undefined ? undefined : isElementType(raw) ? raw : resolveElementType(raw);
  const id = register(ctx, e, type ?? "#unknown", "an element");
  if (id === null) return;
  if (type === undefined) {
    addError(
      ctx,
      `identifier ${id}`,
      raw === undefined ? "the element has no xsi:type" : `unknown element type '${raw}'`,
    );
    return;
  }
  const children = e.children;
  const name = readLang(ctx, children, T.name) ?? "";
  let i18n = withLangs(null, "name", ctx.langs);
  const documentation = readLang(ctx, children, T.documentation);
  i18n = withLangs(i18n, "documentation", ctx.langs);
  const out = ctx.doc.elements;
  out.push({ id, ord: out.length, type, name, documentation, i18n });
  if (children !== null) readProperties(ctx, child(children, T.properties), "element", id);
}

function readRelationship(ctx: ParseContext, r: XmlNode): void {
  const T = ctx.tag;
  const raw = xsiTypeOf(ctx, r);
  const type = raw === undefined ? undefined : resolveRelationshipType(raw);
  const id = register(ctx, r, type === undefined ? "#unknown" : RELATIONSHIP_MARK, "a relationship");
  if (id === null) return;
  if (type === undefined) {
    const message = raw === undefined ? "the relationship has no xsi:type" : `unknown relationship type '${raw}'`;
    addError(ctx, `identifier ${id}`, message);
    return;
  }
  const children = r.children;
  const name = readLang(ctx, children, T.name);
  let i18n: I18n | null = withLangs(null, "name", ctx.langs);
  const documentation = readLang(ctx, children, T.documentation);
  i18n = withLangs(i18n, "documentation", ctx.langs);
  const out = ctx.doc.relationships;
  out.push({
    id,
    ord: out.length,
    type,
    sourceId: attr(r, "source") ?? "",
    targetId: attr(r, "target") ?? "",
    name,
    documentation,
    isDirected: type === "Association" ? readBoolean(attr(r, "isDirected")) : null,
    accessType: type === "Access" ? readAccessType(ctx, id, attr(r, "accessType")) : null,
    influenceStrength: type === "Influence" ? (attr(r, "modifier") ?? null) : null,
    i18n,
  });
  if (children !== null) readProperties(ctx, child(children, T.properties), "relationship", id);
}

function readBoolean(value: string | undefined): boolean | null {
  if (value === undefined) return null;
  const v = value.trim();
  return v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : null;
}

function readAccessType(ctx: ParseContext, id: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  const squashed = value.replace(/[\s_-]/g, "").toLowerCase();
  const known = ACCESS_TYPES.find((t) => t.toLowerCase() === squashed);
  if (known === undefined) addWarning(ctx, `identifier ${id}`, `unknown accessType '${value}' was dropped`);
  return known ?? null;
}

function readPropertyDefinition(ctx: ParseContext, d: XmlNode): void {
  const T = ctx.tag;
  const id = register(ctx, d, "#propdef", "a property definition");
  if (id === null) return;
  const name = readLang(ctx, d.children, T.name) ?? "";
  let i18n = withLangs(null, "name", ctx.langs);
  // No documentation column: every value goes to i18n.
  const documentation = readLang(ctx, d.children, T.documentation);
  if (documentation !== null)
    i18n = withLangs(i18n, "documentation", ctx.langs ?? [{ lang: null, value: documentation }]);
  let type = attr(d, "type") ?? "string";
  if (!DATA_TYPES.has(type)) {
    addWarning(ctx, `identifier ${id}`, `property type '${type}' is not an exchange data type: imported as string`);
    type = "string";
  }
  const out = ctx.doc.propertyDefinitions;
  out.push({ id, ord: out.length, name, type, isSystem: false, i18n });
}
