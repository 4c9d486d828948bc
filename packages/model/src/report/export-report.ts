import { once } from "node:events";
import { PassThrough, Readable } from "node:stream";
import { ZipArchive } from "archiver";
import type { Verb } from "../context.ts";
import type { IconResolver } from "../render/types.ts";
import { type ExportQuery, exportDocument, fileNameOf } from "../transfer/export-model.ts";
import { reportEntries } from "./pages.ts";
import { indexReport } from "./report-model.ts";

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
 * refusal is an error, not a broken download); then each page is built only when the archive has written the one
 * before, so memory holds the model and one page, never the whole site.
 */
export async function exportReport({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  const { doc, version } = await exportDocument(ctx, input);
  const rm = indexReport(doc, inlineIconsOnly(ctx.resolveIcon));
  const name = `${doc.model.name ?? "model"}${version ? ` (${version.name})` : ""}`;
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const out = new PassThrough();
  zip.pipe(out);
  zip.on("error", (err) => out.destroy(err));
  void (async () => {
    try {
      for (const entry of reportEntries(rm)) {
        const written = once(zip, "entry");
        zip.append(entry.body, { name: entry.name });
        await written;
      }
      await zip.finalize();
    } catch (err) {
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return { fileName: `${fileNameOf(name)} report.zip`, body: Readable.toWeb(out) as ReadableStream<Uint8Array> };
}
