import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { serializeExchange } from "../exchange/serialize.ts";
import { readModel } from "../store/read-document.ts";

/** The active workspace as an Open Exchange XML document, with a file name for downloads. */
export async function exportModel({ ctx }: Verb): Promise<{ xml: string; fileName: string }> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const doc = await ctx.database.db.transaction((tx) => readModel(ctx.database, ws, tx), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
  return { xml: serializeExchange(doc), fileName: `${fileNameOf(doc.model.name ?? "model")}.xml` };
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
