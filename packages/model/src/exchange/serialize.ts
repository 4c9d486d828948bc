import type { ModelInfo } from "@ams/db";
import type { FolderRow, ModelDocument } from "./document.ts";
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
  const model = doc.model;
  const metadata = metadataEntries(model);
  const chunks: string[] = [];
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<model xmlns="', ARCHIMATE_NS];
  out.push('" xmlns:xsi="', XSI_NS, '"');
  if (metadata.length > 0) out.push(' xmlns:dc="', DC_NS, '"');
  out.push(' xsi:schemaLocation="', SCHEMA_LOCATION, metadata.length > 0 ? ` ${DC_SCHEMA_LOCATION}` : "", '"');
  out.push(' identifier="', escapeAttr(model.identifier || "id-model"), '"');
  if (model.version != null) out.push(' version="', escapeAttr(model.version), '"');
  out.push(">");
  const i1 = indent(1);
  writeLangs(out, i1, "name", model.name ?? "", model.i18n?.name, "always");
  writeLangs(out, i1, "documentation", model.documentation, model.i18n?.documentation, "set");

  const props = groupProperties(doc);
  writeProperties(out, 1, props.get("model\u0000"));
  if (model.metadata !== undefined) writeMetadata(out, model.metadata, metadata);

  const elements = inOrder(doc.elements);
  if (elements.length > 0) {
    const i2 = indent(2);
    out.push(i1, "<elements>");
    for (const e of elements) {
      out.push(i2, '<element identifier="', escapeAttr(e.id), '" xsi:type="', e.type, '"');
      const open = out.length;
      out.push(">");
      const i3 = indent(3);
      writeLangs(out, i3, "name", e.name, e.i18n?.name, NAME_OPTIONAL_TYPES.has(e.type) ? "nonEmpty" : "always");
      writeLangs(out, i3, "documentation", e.documentation, e.i18n?.documentation, "set");
      writeProperties(out, 3, props.get(`element\u0000${e.id}`));
      closeTag(out, open, i2, "element");
      spill(out, chunks);
    }
    out.push(i1, "</elements>");
  }

  const relationships = inOrder(doc.relationships);
  if (relationships.length > 0) {
    const i2 = indent(2);
    const i3 = indent(3);
    out.push(i1, "<relationships>");
    for (const r of relationships) {
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
      spill(out, chunks);
    }
    out.push(i1, "</relationships>");
  }

  writeOrganizations(out, chunks, doc);

  const definitions = inOrder(doc.propertyDefinitions);
  if (definitions.length > 0) {
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

  writeViews(out, chunks, doc, props);
  out.push("\n</model>\n");
  chunks.push(out.join(""));
  return chunks.join("");
}

/** Ends an element whose start tag's ">" is at out[open]: as "/>" when nothing was written inside. */
function closeTag(out: string[], open: number, ind: string, tag: string): void {
  if (out.length === open + 1) out[open] = "/>";
  else out.push(ind, "</", tag, ">");
}

/** Property values by "kind\0ownerId", each list in ord order; values of unknown definitions are left out. */
function groupProperties(doc: ModelDocument): PropertiesByOwner {
  const defined = new Set(doc.propertyDefinitions.map((d) => d.id));
  const groups = groupBy(
    doc.properties.filter((p) => defined.has(p.definitionId)),
    (p) => `${p.ownerKind}\u0000${p.ownerId}`,
  );
  for (const [key, list] of groups) {
    const sorted = list.slice().sort((a, b) => a.ord - b.ord);
    groups.set(key, sorted);
  }
  return groups;
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
function writeOrganizations(out: string[], chunks: string[], doc: ModelDocument): void {
  if (doc.folders.length === 0) return;
  // Only the referenced identifiers are looked for, and the scan stops once all are found (usually within the
  // elements), instead of building a set of every identifier of the model.
  const missing = new Set<string>();
  for (const f of doc.folders) if (f.refId !== null) missing.add(f.refId);
  const scan = [doc.elements, doc.relationships, doc.views, doc.propertyDefinitions, doc.nodes, doc.connections];
  for (const rows of scan) {
    if (missing.size === 0) break;
    for (const row of rows) missing.delete(row.id);
  }
  for (const f of doc.folders) if (f.identifier !== null) missing.delete(f.identifier);
  if (doc.model.identifier) missing.delete(doc.model.identifier);
  const byParent = groupBy(doc.folders, (f) => f.parentId);
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
