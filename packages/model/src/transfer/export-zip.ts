import { PassThrough, Readable } from "node:stream";
import type { Verb } from "../context.ts";
import { renderInputOf } from "../history/model-at.ts";
import { renderViewSvg } from "../render/render-view.ts";
import { listViews } from "../views/read.ts";
import { renderView } from "../views/render.ts";
import { type ExportQuery, exportDocument, exportModel } from "./export-model.ts";

/** An entry name for a view's SVG: its name made safe for every platform, unique case-insensitively. */
function svgNames(views: { id: string; name: string | null }[]): string[] {
  const used = new Set<string>();
  return views.map((v) => {
    const base =
      (v.name || v.id)
        .replace(/[^\w .()-]+/g, "_")
        .trim()
        .slice(0, 100) || v.id;
    let name = `${base}.svg`;
    for (let i = 2; used.has(name.toLowerCase()); i++) name = `${base} (${i}).svg`;
    used.add(name.toLowerCase());
    return name;
  });
}

/**
 * The active workspace as a ZIP: the Open Exchange XML and one SVG per view under `views/`. Everything is read and
 * rendered before the archive starts, so a refusal is an error rather than a broken download; the archive itself
 * is compressed as it is read.
 */
export async function exportZip({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  const { xml, fileName } = await exportModel({ ctx, input });
  const svgs: { name: string; svg: string }[] = [];
  if (input?.version) {
    // A past state: its views drawn from the reconstructed model (the same renderer).
    const { doc } = await exportDocument(ctx, input);
    const names = svgNames(doc.views);
    for (const [i, v] of doc.views.entries()) {
      const data = renderInputOf(doc, v.id);
      if (data)
        svgs.push({ name: names[i] ?? `${v.id}.svg`, svg: renderViewSvg(data, { resolveIcon: ctx.resolveIcon }) });
    }
  } else {
    const views = await listViews({ ctx });
    const names = svgNames(views);
    for (const [i, v] of views.entries()) {
      svgs.push({ name: names[i] ?? `${v.id}.svg`, svg: await renderView({ ctx, input: { id: v.id } }) });
    }
  }
  // archiver is loaded on the first ZIP export, not with the service (about 3 MB of heap it would hold idle).
  const { ZipArchive } = await import("archiver");
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const out = new PassThrough();
  zip.pipe(out);
  zip.append(xml, { name: fileName });
  for (const s of svgs) zip.append(s.svg, { name: `views/${s.name}` });
  void zip.finalize();
  return {
    fileName: `${fileName.replace(/\.xml$/, "")}.zip`,
    body: Readable.toWeb(out) as ReadableStream<Uint8Array>,
  };
}
