import { PassThrough, Readable } from "node:stream";
import { ELEMENT_TYPES, type Layer, RELATIONSHIP_TYPES } from "@ams/shared";
import { z } from "zod";
import type { Verb } from "../../context.ts";
import type { ModelDocument } from "../../exchange/document.ts";
import { type ExportQuery, exportDocument, fileNameOf } from "../export-model.ts";
import { csvLine, ELEMENTS_HEADER, PROPERTIES_HEADER, RELATIONS_HEADER } from "./format.ts";

const CRLF = "\r\n";

/** Archi writes elements folder by folder: Strategy, Business, Application, Technology, Motivation, Implementation, Other. */
const FOLDER_ORDER: Record<Layer, number> = {
  Strategy: 0,
  Business: 1,
  Application: 2,
  Technology: 3,
  Physical: 3,
  Motivation: 4,
  Implementation: 5,
  Composite: 6,
};
const typeInfo = new Map(ELEMENT_TYPES.map((t) => [t.name as string, t]));
const relationshipArchi = new Map(RELATIONSHIP_TYPES.map((t) => [t.name as string, t.archiName]));
const ARCHI_ACCESS: Record<string, string> = { Write: "Write", Read: "Read", Access: "Access", ReadWrite: "ReadWrite" };

/** Archi's order inside a folder: by class name, then by name, both ignoring case (a stable sort). */
function byClassThenName<T extends { cls: string; name: string | null }>(a: T, b: T): number {
  const ca = a.cls.toLowerCase();
  const cb = b.cls.toLowerCase();
  if (ca !== cb) return ca < cb ? -1 : 1;
  const na = (a.name ?? "").toLowerCase().trim();
  const nb = (b.name ?? "").toLowerCase().trim();
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** The three files as Archi's exporter writes them (UTF-8 without BOM, comma, every field quoted, CRLF between lines). */
export function csvFiles(
  doc: ModelDocument,
  modelId: string,
): { elements: string; relations: string; properties: string } {
  const elements = doc.elements
    .map((e) => {
      const info = typeInfo.get(e.type);
      return { e, cls: info?.archiName ?? e.type, name: e.name, folder: info ? FOLDER_ORDER[info.layer] : 6 };
    })
    .sort((a, b) => a.folder - b.folder || byClassThenName(a, b));
  const relationships = doc.relationships
    .map((r) => ({ r, cls: relationshipArchi.get(r.type) ?? `${r.type}Relationship`, name: r.name }))
    .sort(byClassThenName);

  const el: string[] = [csvLine(ELEMENTS_HEADER)];
  el.push(csvLine([modelId, "ArchimateModel", doc.model.name ?? "", doc.model.documentation ?? "", ""]));
  for (const { e, cls } of elements) el.push(csvLine([e.id, cls, e.name, e.documentation ?? "", ""]));

  const rel: string[] = [csvLine(RELATIONS_HEADER)];
  for (const { r, cls } of relationships) {
    rel.push(csvLine([r.id, cls, r.name ?? "", r.documentation ?? "", r.sourceId, r.targetId, ""]));
  }

  const names = new Map(doc.propertyDefinitions.map((d) => [d.id, d.name]));
  const byOwner = new Map<string, { key: string; value: string }[]>();
  for (const p of doc.properties) {
    const k = `${p.ownerKind}:${p.ownerId}`;
    const list = byOwner.get(k) ?? [];
    list.push({ key: names.get(p.definitionId) ?? p.definitionId, value: p.value });
    byOwner.set(k, list);
  }
  const props: string[] = [csvLine(PROPERTIES_HEADER)];
  const write = (id: string, list: { key: string; value: string }[] | undefined) => {
    for (const p of list ?? []) props.push(csvLine([id, p.key, p.value]));
  };
  write(modelId, byOwner.get("model:"));
  for (const { e } of elements) {
    write(e.id, byOwner.get(`element:${e.id}`));
    if (e.type === "AndJunction" || e.type === "OrJunction") {
      props.push(csvLine([e.id, "Junction_Type", e.type === "AndJunction" ? "And" : "Or"]));
    }
  }
  for (const { r } of relationships) {
    write(r.id, byOwner.get(`relationship:${r.id}`));
    // Archi's attributes of relationships travel as properties.
    if (r.type === "Influence" && r.influenceStrength)
      props.push(csvLine([r.id, "Influence_Strength", r.influenceStrength]));
    else if (r.type === "Access")
      props.push(csvLine([r.id, "Access_Type", ARCHI_ACCESS[r.accessType ?? "Write"] ?? "Write"]));
    else if (r.type === "Association") props.push(csvLine([r.id, "Directed", r.isDirected ? "true" : "false"]));
  }
  return { elements: el.join(CRLF), relations: rel.join(CRLF), properties: props.join(CRLF) };
}

/** Archi's three CSV files of a model, and the name of their ZIP for a download. */
export const CsvFiles = z.object({
  file_name: z.string().describe("A name for the ZIP of the three files"),
  files: z.object({
    "elements.csv": z.string().describe("The model row, then one row per element"),
    "relations.csv": z.string().describe("One row per relationship"),
    "properties.csv": z.string().describe("One row per property (and Archi's relationship attributes)"),
  }),
});
export type CsvFiles = z.infer<typeof CsvFiles>;

/**
 * The active workspace (or one of its versions) as Archi's three CSV files: elements.csv (the model row first),
 * relations.csv and properties.csv, which Archi's "Import CSV" reads back. Cells a spreadsheet would run as
 * formulas are neutralised with a leading single quote.
 */
export async function exportCsvFiles({ ctx, input }: Verb<ExportQuery | undefined>): Promise<CsvFiles> {
  const { doc, version } = await exportDocument(ctx, input);
  const modelId = doc.model.identifier ?? `id-${ctx.workspaceId ?? "model"}`;
  const files = csvFiles(doc, modelId);
  const name = `${doc.model.name ?? "model"}${version ? ` (${version.name})` : ""}`;
  return {
    file_name: `${fileNameOf(name)} (CSV).zip`,
    files: { "elements.csv": files.elements, "relations.csv": files.relations, "properties.csv": files.properties },
  };
}

/** exportCsvFiles as a ZIP stream (GET /api/export?format=csv). */
export async function exportCsv({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  const { file_name, files } = await exportCsvFiles({ ctx, input });
  // archiver is loaded on the first ZIP export, not with the service (about 3 MB of heap it would hold idle).
  const { ZipArchive } = await import("archiver");
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const out = new PassThrough();
  zip.pipe(out);
  for (const [name, text] of Object.entries(files)) zip.append(text, { name });
  void zip.finalize();
  return { fileName: file_name, body: Readable.toWeb(out) as ReadableStream<Uint8Array> };
}
