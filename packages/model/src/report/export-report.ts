import { Readable } from "node:stream";
import type { Verb } from "../context.ts";
import type { IconResolver } from "../render/types.ts";
import { type ExportQuery, exportDocument, fileNameOf } from "../transfer/export-model.ts";
import { reportEntries } from "./pages.ts";
import { indexReport } from "./report-model.ts";
import { zipEntries } from "./zip-writer.ts";

/** Icons the report may show: inline SVG only; an icon the viewer would fetch from somewhere is not offline. */
export function inlineIconsOnly(resolve: IconResolver | undefined): IconResolver | undefined {
  if (!resolve) return undefined;
  return (value) => {
    const icon = resolve(value);
    return icon && "svg" in icon ? icon : undefined;
  };
}

/**
 * The model (with `version`, as it was then) as a static HTML report in a ZIP: index.html with the model tree and a
 * search, a page per view (its SVG, elements clickable), element and relationship. The model is read first (a
 * refusal is an error, not a broken download); then each page is built and compressed only when the client has taken
 * the one before, so memory holds the model and one page (and the ZIP's directory), never the whole site.
 */
export async function exportReport({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  const { doc, version } = await exportDocument(ctx, input);
  const rm = indexReport(doc, inlineIconsOnly(ctx.resolveIcon));
  const name = `${doc.model.name ?? "model"}${version ? ` (${version.name})` : ""}`;
  // Readable.from reads the generator only as fast as the client takes the bytes: one page in memory at a time.
  const body = Readable.toWeb(Readable.from(zipEntries(reportEntries(rm)))) as ReadableStream<Uint8Array>;
  return { fileName: `${fileNameOf(name)} report.zip`, body };
}
