import type { ModelInfo } from "@ams/db";
import type {
  ConnectionRow,
  ElementRow,
  FolderRow,
  ModelDocument,
  PropertyDefinitionRow,
  PropertyValueRow,
  RelationshipRow,
  ViewNodeRow,
  ViewRow,
} from "./document.ts";
import {
  ACCESS_TYPES,
  ARCHIMATE_NS,
  DATA_TYPES,
  DC_ELEMENTS,
  DC_NS,
  DC_SCHEMA_LOCATION,
  NAME_OPTIONAL_TYPES,
  SCHEMA_LOCATION,
  XSI_NS,
} from "./format.ts";
import { writeViews } from "./serialize-views.ts";
import {
  escapeAttr,
  escapeText,
  groupBy,
  indent,
  inOrder,
  type PropertiesByOwner,
  spill,
  writeLangs,
  writeProperties,
} from "./xml-writer.ts";

export type SerializeOptions = Record<string, never>;

/**
 * Writes a model as an Open Exchange document (namespace .../archimate/3.0/, ArchiMate 3.1 Diagram schema), in the
 * XSD's order: name, documentation, properties, metadata, elements, relationships, organizations,
 * propertyDefinitions, views. Deterministic: the same rows give the same bytes, whatever order they come in.
 */
export function serializeExchange(doc: ModelDocument, _opts: SerializeOptions = {}): string {
  const props = groupProperties(doc.properties, doc.propertyDefinitions);
  const w = new ExchangeWriter();
  w.header(doc.model, props.get("model\u0000"));
  w.elements(doc.elements, props);
  w.relationships(doc.relationships, props);
  w.organizations(doc.folders, missingReferences(doc));
  w.propertyDefinitions(doc.propertyDefinitions);
  w.views(doc.views, doc.nodes, doc.connections, props);
  w.end();
  return w.take();
}

type Section = "elements" | "relationships" | "views";

/**
 * The document written piece by piece, in the XSD's order: the header, then elements and relationships (each in as
 * many calls as there are pages of rows, in model order), organizations, property definitions, views (in pages of
 * whole views with their nodes and connections), end. `take` hands over what was written so far, so a model read in
 * pieces is written in pieces and never held whole; the pieces joined are the bytes serializeExchange writes.
 */
export class ExchangeWriter {
  private out: string[] = [];
  private chunks: string[] = [];
  private open: Section | null = null;

  header(model: ModelInfo, modelProperties: PropertyValueRow[] | undefined): void {
    const out = this.out;
    const metadata = metadataEntries(model);
    out.push('<?xml version="1.0" encoding="UTF-8"?>\n<model xmlns="', ARCHIMATE_NS);
    out.push('" xmlns:xsi="', XSI_NS, '"');
    if (metadata.length > 0) out.push(' xmlns:dc="', DC_NS, '"');
    out.push(' xsi:schemaLocation="', SCHEMA_LOCATION, metadata.length > 0 ? ` ${DC_SCHEMA_LOCATION}` : "", '"');
    out.push(' identifier="', escapeAttr(model.identifier || "id-model"), '"');
    if (model.version != null) out.push(' version="', escapeAttr(model.version), '"');
    out.push(">");
    const i1 = indent(1);
    writeLangs(out, i1, "name", model.name ?? "", model.i18n?.name, "always");
    writeLangs(out, i1, "documentation", model.documentation, model.i18n?.documentation, "set");
    writeProperties(out, 1, modelProperties);
    if (model.metadata !== undefined) writeMetadata(out, model.metadata, metadata);
  }

  /** Elements in model order (one page of them; the next page continues the list). */
  elements(rows: ElementRow[], props: PropertiesByOwner): void {
    if (rows.length === 0) return;
    this.enter("elements");
    const out = this.out;
    const i2 = indent(2);
    const i3 = indent(3);
    for (const e of inOrder(rows)) {
      out.push(i2, '<element identifier="', escapeAttr(e.id), '" xsi:type="', e.type, '"');
      const open = out.length;
      out.push(">");
      writeLangs(out, i3, "name", e.name, e.i18n?.name, NAME_OPTIONAL_TYPES.has(e.type) ? "nonEmpty" : "always");
      writeLangs(out, i3, "documentation", e.documentation, e.i18n?.documentation, "set");
      writeProperties(out, 3, props.get(`element\u0000${e.id}`));
      closeTag(out, open, i2, "element");
      spill(out, this.chunks);
    }
  }

  /** Relationships in model order (one page of them). */
  relationships(rows: RelationshipRow[], props: PropertiesByOwner): void {
    if (rows.length === 0) return;
    this.enter("relationships");
    const out = this.out;
    const i2 = indent(2);
    const i3 = indent(3);
    for (const r of inOrder(rows)) {
      out.push(i2, '<relationship identifier="', escapeAttr(r.id), '" source="', escapeAttr(r.sourceId));
      out.push('" target="', escapeAttr(r.targetId), '" xsi:type="', r.type, '"');
      if (r.type === "Access" && r.accessType != null) {
        const written = r.accessType.replace(/[\s_-]/g, "").toLowerCase();
        const access = ACCESS_TYPES.find((t) => t.toLowerCase() === written);
        if (access !== undefined) out.push(' accessType="', access, '"');
      }
      if (r.type === "Association" && r.isDirected != null) out.push(' isDirected="', String(r.isDirected), '"');
      if (r.type === "Influence" && r.influenceStrength != null) {
        out.push(' modifier="', escapeAttr(r.influenceStrength), '"');
      }
      const open = out.length;
      out.push(">");
      writeLangs(out, i3, "name", r.name, r.i18n?.name, "set");
      writeLangs(out, i3, "documentation", r.documentation, r.i18n?.documentation, "set");
      writeProperties(out, 3, props.get(`relationship\u0000${r.id}`));
      closeTag(out, open, i2, "relationship");
      spill(out, this.chunks);
    }
  }

  /** The folder tree; `missing`: the referenced identifiers that name nothing in the document (missingReferences). */
  organizations(folders: FolderRow[], missing: ReadonlySet<string>): void {
    this.enter(null);
    writeOrganizations(this.out, this.chunks, folders, missing);
  }

  propertyDefinitions(rows: PropertyDefinitionRow[]): void {
    this.enter(null);
    const definitions = inOrder(rows);
    if (definitions.length === 0) return;
    const out = this.out;
    const i1 = indent(1);
    out.push(i1, "<propertyDefinitions>");
    for (const d of definitions) {
      const type = DATA_TYPES.has(d.type) ? d.type : "string";
      out.push(indent(2), '<propertyDefinition identifier="', escapeAttr(d.id), '" type="', type, '">');
      writeLangs(out, indent(3), "name", d.name, d.i18n?.name, "always");
      writeLangs(out, indent(3), "documentation", null, d.i18n?.documentation, "set");
      out.push(indent(2), "</propertyDefinition>");
    }
    out.push(i1, "</propertyDefinitions>");
  }

  /** Views in model order (one page of them) with all their nodes and connections. */
  views(views: ViewRow[], nodes: ViewNodeRow[], connections: ConnectionRow[], props: PropertiesByOwner): void {
    if (views.length === 0) return;
    this.enter("views");
    writeViews(this.out, this.chunks, inOrder(views), nodes, connections, props);
  }

  end(): void {
    this.enter(null);
    this.out.push("\n</model>\n");
  }

  /** What was written since the last take, as one string. */
  take(): string {
    this.chunks.push(this.out.join(""));
    this.out.length = 0;
    const text = this.chunks.length === 1 ? (this.chunks[0] as string) : this.chunks.join("");
    this.chunks = [];
    return text;
  }

  /** Closes the open list (elements, relationships, views) unless it is `section`, and opens `section`. */
  private enter(section: Section | null): void {
    if (this.open === section) return;
    const out = this.out;
    if (this.open === "views") out.push(indent(2), "</diagrams>", indent(1), "</views>");
    else if (this.open !== null) out.push(indent(1), `</${this.open}>`);
    if (section === "views") out.push(indent(1), "<views>", indent(2), "<diagrams>");
    else if (section !== null) out.push(indent(1), `<${section}>`);
    this.open = section;
  }
}

/** Ends an element whose start tag's ">" is at out[open]: as "/>" when nothing was written inside. */
function closeTag(out: string[], open: number, ind: string, tag: string): void {
  if (out.length === open + 1) out[open] = "/>";
  else out.push(ind, "</", tag, ">");
}

/**
 * Property values by "kind\0ownerId", each list in ord order; values of unknown definitions are left out. Works on
 * any part of a model's values that holds all of each owner's.
 */
export function groupProperties(values: PropertyValueRow[], definitions: readonly { id: string }[]): PropertiesByOwner {
  const defined = new Set(definitions.map((d) => d.id));
  const groups = groupBy(
    values.filter((p) => defined.has(p.definitionId)),
    (p) => `${p.ownerKind}\u0000${p.ownerId}`,
  );
  for (const [key, list] of groups) {
    const sorted = list.slice().sort((a, b) => a.ord - b.ord);
    groups.set(key, sorted);
  }
  return groups;
}

/**
 * The folders' references (identifierRef) that name nothing in the document: such an item loses its reference. Only
 * the referenced identifiers are looked for, and the scan stops once all are found (usually within the elements),
 * instead of building a set of every identifier of the model.
 */
export function missingReferences(doc: ModelDocument): Set<string> {
  const missing = referencedByFolders(doc.folders, doc.model);
  const scan = [doc.elements, doc.relationships, doc.views, doc.propertyDefinitions, doc.nodes, doc.connections];
  for (const rows of scan) {
    if (missing.size === 0) break;
    for (const row of rows) missing.delete(row.id);
  }
  return missing;
}

/** The identifiers folders refer to, less those the folders themselves or the model carry. */
export function referencedByFolders(folders: FolderRow[], model: ModelInfo): Set<string> {
  const missing = new Set<string>();
  for (const f of folders) if (f.refId !== null) missing.add(f.refId);
  for (const f of folders) if (f.identifier !== null) missing.delete(f.identifier);
  if (model.identifier) missing.delete(model.identifier);
  return missing;
}

type DcEntry = { local: string; value: string; lang?: string | null };

function metadataEntries(model: ModelInfo): DcEntry[] {
  const entries: DcEntry[] = [];
  for (const e of model.metadata?.entries ?? []) {
    const colon = e.name.indexOf(":");
    if (colon !== -1 && e.name.slice(0, colon) !== "dc") continue;
    const local = e.name.slice(colon + 1);
    if (DC_ELEMENTS.has(local)) entries.push({ local, value: e.value, lang: e.lang });
  }
  return entries;
}

function writeMetadata(out: string[], metadata: NonNullable<ModelInfo["metadata"]>, entries: DcEntry[]): void {
  const i2 = indent(2);
  out.push(indent(1), "<metadata>");
  if (metadata.schema != null) out.push(i2, "<schema>", escapeText(metadata.schema), "</schema>");
  if (metadata.schemaversion != null) {
    out.push(i2, "<schemaversion>", escapeText(metadata.schemaversion), "</schemaversion>");
  }
  for (const e of entries)
    writeLangs(out, i2, `dc:${e.local}`, null, [{ lang: e.lang ?? null, value: e.value }], "set");
  out.push(indent(1), "</metadata>");
}

/** Items whose identifierRef names nothing in the document (the folders table has no foreign key) lose the ref. */
function writeOrganizations(out: string[], chunks: string[], folders: FolderRow[], missing: ReadonlySet<string>): void {
  if (folders.length === 0) return;
  const byParent = groupBy(folders, (f) => f.parentId);
  const refOf = (f: FolderRow) => (f.refId !== null && !missing.has(f.refId) ? f.refId : null);
  const hasBody = (f: FolderRow) =>
    f.label !== null || f.documentation !== null || f.i18n?.label !== undefined || f.i18n?.documentation !== undefined;
  // An item that is left with nothing (its reference gone) is not written.
  const kept = (f: FolderRow) => refOf(f) !== null || f.identifier !== null || hasBody(f) || byParent.has(f.id);
  const write = (parentId: number | null, level: number) => {
    for (const f of inOrder(byParent.get(parentId) ?? [])) {
      if (!kept(f)) continue;
      const ref = refOf(f);
      const hasChildren = byParent.has(f.id);
      out.push(indent(level), "<item");
      if (f.identifier !== null) out.push(' identifier="', escapeAttr(f.identifier), '"');
      if (ref !== null) out.push(' identifierRef="', escapeAttr(ref), '"');
      if (!hasBody(f) && !hasChildren) out.push("/>");
      else {
        out.push(">");
        writeLangs(out, indent(level + 1), "label", f.label, f.i18n?.label, "set");
        writeLangs(out, indent(level + 1), "documentation", f.documentation, f.i18n?.documentation, "set");
        if (hasChildren) write(f.id, level + 1);
        out.push(indent(level), "</item>");
      }
      spill(out, chunks);
    }
  };
  if (!(byParent.get(null) ?? []).some(kept)) return;
  out.push(indent(1), "<organizations>");
  write(null, 2);
  out.push(indent(1), "</organizations>");
}
