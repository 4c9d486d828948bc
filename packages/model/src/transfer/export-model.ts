import { sql } from "drizzle-orm";
import { z } from "zod";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { serializeExchange } from "../exchange/serialize.ts";
import { documentAtVersion } from "../history/model-at.ts";
import { readModel } from "../store/read-document.ts";

export const ExportQuery = z.strictObject({
  version: z.string().max(100).optional().describe("A version's id: the model as it was at that version"),
});
export type ExportQuery = z.infer<typeof ExportQuery>;

/** The model of the active workspace (with `version`, as it was then), read in one snapshot. */
export async function exportDocument(ctx: RequestContext, input?: ExportQuery) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  if (input?.version) return documentAtVersion(ctx, ws, input.version);
  const doc = await ctx.database.db.transaction((tx) => readModel(ctx.database, ws, tx), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
  return { doc, version: null };
}

/** The active workspace (or one of its versions) as an Open Exchange XML document, with a file name for downloads. */
export async function exportModel({
  ctx,
  input,
}: Verb<ExportQuery | undefined>): Promise<{ xml: string; fileName: string }> {
  const { doc, version } = await exportDocument(ctx, input);
  const name = `${doc.model.name ?? "model"}${version ? ` (${version.name})` : ""}`;
  return { xml: serializeExchange(doc), fileName: `${fileNameOf(name)}.xml` };
}

/** A name safe for Content-Disposition and ZIP entries on every platform. */
export function fileNameOf(name: string): string {
  const cleaned = name
    .normalize("NFKD")
    .replace(/[^\w .()-]+/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 100);
  return cleaned || "model";
}

export async function workspaceName(ctx: RequestContext, ws: string) {
  const [row] = await ctx.database.rows<{ name: string }>(sql`select name from workspaces where id = ${ws}`);
  return row?.name ?? "model";
}
