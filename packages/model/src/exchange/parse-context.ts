import type { I18n, LangString } from "@ams/db";
import { AppError, type FieldError } from "@ams/shared";
import { TEXT_LIMITS } from "../schemas.ts";
import type { ModelDocument, Warning } from "./document.ts";
import { isNcName } from "./format.ts";
import { attr, type XmlNode } from "./xml-reader.ts";

const MAX_ERRORS = 50;
const MAX_WARNINGS = 200;

/** Exchange tag names with the document's prefix for the ArchiMate namespace ("" when it is the default one). */
export function tagNames(prefix: string) {
  const t = (local: string) => prefix + local;
  return {
    name: t("name"),
    documentation: t("documentation"),
    label: t("label"),
    properties: t("properties"),
    property: t("property"),
    value: t("value"),
    metadata: t("metadata"),
    schema: t("schema"),
    schemaversion: t("schemaversion"),
    schemaInfo: t("schemaInfo"),
    elements: t("elements"),
    element: t("element"),
    relationships: t("relationships"),
    relationship: t("relationship"),
    organizations: t("organizations"),
    item: t("item"),
    propertyDefinitions: t("propertyDefinitions"),
    propertyDefinition: t("propertyDefinition"),
    views: t("views"),
    viewpoints: t("viewpoints"),
    diagrams: t("diagrams"),
    view: t("view"),
    node: t("node"),
    connection: t("connection"),
    style: t("style"),
    viewRef: t("viewRef"),
    bendpoint: t("bendpoint"),
    sourceAttachment: t("sourceAttachment"),
    targetAttachment: t("targetAttachment"),
    fillColor: t("fillColor"),
    lineColor: t("lineColor"),
    font: t("font"),
    color: t("color"),
  };
}
export type Tags = ReturnType<typeof tagNames>;

/**
 * What an identifier names: an element's type, "Relationship" for relationships, or "#kind" for the rest
 * ("#view", "#propdef", "#folder", "#model", "#node@<view>", "#connection@<view>", "#unknown" for refused ones).
 */
export const RELATIONSHIP_MARK = "Relationship";
export type IdMark = string;

export type ParseContext = {
  src: string;
  tag: Tags;
  /** Attribute name of xsi:type with the document's prefix. */
  xsiType: string;
  /** Namespace declarations of the root element, prefix ("" = default) to URI. */
  namespaces: Map<string, string>;
  doc: ModelDocument;
  ids: Map<string, IdMark>;
  errors: FieldError[];
  warnings: Warning[];
  droppedWarnings: number;
  strictRelationships: boolean;
  /** Scratch result of readLang: every language when the field needs i18n, else undefined. */
  langs: LangString[] | undefined;
  newlines: number[] | null;
  /** Next ord of a top-level organization item (several <organizations> blocks continue the count). */
  folderOrd: number;
};

export function refused(errors: FieldError[]): AppError {
  const first = errors[0] ?? { path: "(file)", message: "refused" };
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  return new AppError("VALIDATION", `The exchange file was refused: ${first.path}: ${first.message}${more}`, {
    errors,
  });
}

export function addError(ctx: ParseContext, path: string, message: string): void {
  ctx.errors.push({ path, message });
  if (ctx.errors.length >= MAX_ERRORS) throw refused(ctx.errors);
}

export function addWarning(ctx: ParseContext, path: string, message: string): void {
  if (ctx.warnings.length < MAX_WARNINGS) ctx.warnings.push({ path, message });
  else ctx.droppedWarnings++;
}

/** "line N" of a node, from a newline index built on first use (errors are rare, files can be large). */
export function lineOf(ctx: ParseContext, node: XmlNode): string {
  if (ctx.newlines === null) {
    const nl: number[] = [];
    for (let k = ctx.src.indexOf("\n"); k !== -1; k = ctx.src.indexOf("\n", k + 1)) nl.push(k);
    ctx.newlines = nl;
  }
  const nl = ctx.newlines;
  let lo = 0;
  let hi = nl.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((nl[mid] ?? Number.POSITIVE_INFINITY) < node.pos) lo = mid + 1;
    else hi = mid;
  }
  return `line ${lo + 1}`;
}

/** Reads and registers a required identifier; returns null (after recording why) when it is unusable. */
export function register(ctx: ParseContext, node: XmlNode, mark: IdMark, what: string): string | null {
  const id = attr(node, "identifier");
  if (id === undefined || id === "") {
    addError(ctx, lineOf(ctx, node), `${what} has no identifier`);
    return null;
  }
  // One hash lookup instead of has + set (this runs for every concept, node and connection). A duplicate's mark
  // becomes "#unknown" so references to it add no noise; the import is refused anyway. The mark is also kept when
  // the identifier is refused below, for the same reason.
  const ids = ctx.ids;
  const size = ids.size;
  ids.set(id, mark);
  if (ids.size === size) {
    ids.set(id, "#unknown");
    addError(
      ctx,
      `identifier ${id}`,
      `duplicate identifier '${id}' (${lineOf(ctx, node)}): identifiers must be unique`,
    );
    return null;
  }
  if (id.length > TEXT_LIMITS.identifier) {
    addError(
      ctx,
      lineOf(ctx, node),
      `identifier '${id.slice(0, 40)}…' is ${id.length} characters long; the limit is ${TEXT_LIMITS.identifier}`,
    );
    return null;
  }
  if (!isNcName(id)) {
    addError(ctx, `identifier ${id}`, `'${id}' is not a valid XML identifier (xs:ID)`);
    return null;
  }
  return id;
}

/**
 * The first value of the repeated LangString children named `tag`, or null when there is none. Leaves in ctx.langs
 * every value with its language when the field needs i18n (more than one value, or an xml:lang), else undefined.
 */
export function readLang(ctx: ParseContext, children: XmlNode[] | null, tag: string): string | null {
  ctx.langs = undefined;
  if (children === null) return null;
  let first: XmlNode | null = null;
  let all: LangString[] | undefined;
  const max =
    tag === ctx.tag.documentation
      ? TEXT_LIMITS.documentation
      : tag === ctx.tag.value
        ? TEXT_LIMITS.propertyValue
        : TEXT_LIMITS.name;
  for (const c of children) {
    if (c.name !== tag) continue;
    if (c.text.length > max) {
      const local = tag.slice(tag.indexOf(":") + 1);
      addError(ctx, lineOf(ctx, c), `<${local}> is ${c.text.length} characters long; the limit is ${max}`);
    }
    if (first === null) {
      first = c;
      const lang = attr(c, "xml:lang");
      if (lang !== undefined) all = [{ lang, value: c.text }];
    } else {
      all ??= [{ lang: attr(first, "xml:lang") ?? null, value: first.text }];
      all.push({ lang: attr(c, "xml:lang") ?? null, value: c.text });
    }
  }
  ctx.langs = all;
  return first === null ? null : first.text;
}

/** Adds one multilingual field to an i18n object, creating it when needed. */
export function withLangs(i18n: I18n | null, key: keyof I18n, langs: LangString[] | undefined): I18n | null {
  if (langs === undefined) return i18n;
  const out = i18n ?? {};
  out[key] = langs;
  return out;
}

export function child(children: XmlNode[] | null, tag: string): XmlNode | null {
  if (children === null) return null;
  for (const c of children) if (c.name === tag) return c;
  return null;
}

/** The local part of an xsi:type value ("archimate:BusinessActor" names BusinessActor). */
export function xsiTypeOf(ctx: ParseContext, node: XmlNode): string | undefined {
  const t = attr(node, ctx.xsiType);
  if (t === undefined) return undefined;
  const colon = t.indexOf(":");
  return colon === -1 ? t : t.slice(colon + 1);
}

export function readProperties(ctx: ParseContext, node: XmlNode | null, ownerKind: string, ownerId: string): void {
  if (node === null || node.children === null) return;
  const out = ctx.doc.properties;
  let ord = 0;
  for (const p of node.children) {
    if (p.name !== ctx.tag.property) continue;
    const ref = attr(p, "propertyDefinitionRef");
    if (ref === undefined || ref === "") {
      addError(ctx, lineOf(ctx, p), "a property has no propertyDefinitionRef");
      continue;
    }
    const value = readLang(ctx, p.children, ctx.tag.value) ?? "";
    out.push({
      ownerKind,
      ownerId,
      ord: ord++,
      definitionId: ref,
      value,
      i18n: ctx.langs ? { value: ctx.langs } : null,
    });
  }
}
