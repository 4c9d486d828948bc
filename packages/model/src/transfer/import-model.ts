import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace } from "../context.ts";
import { parseExchange } from "../exchange/parse.ts";
import { replaceModel } from "../store/write-document.ts";

export type ImportResult = {
  elements: number;
  relationships: number;
  views: number;
  property_definitions: number;
  warnings: { path: string; message: string }[];
};

/**
 * Replaces the active workspace's model by an Open Exchange document in one transaction: the file is parsed and
 * checked completely first, so a refused or failing import leaves the previous model as it was.
 */
export async function importModel({
  ctx,
  input,
}: {
  ctx: RequestContext;
  input: { xml: string };
}): Promise<ImportResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { document, warnings } = parseExchange(input.xml);
  await ctx.database.db.transaction(async (tx) => {
    // Serializes concurrent imports into the same workspace.
    await ctx.database.rows(sql`select id from workspaces where id = ${ws} for update`, tx);
    await replaceModel(ctx.database, tx, ws, document);
  });
  return {
    elements: document.elements.length,
    relationships: document.relationships.length,
    views: document.views.length,
    property_definitions: document.propertyDefinitions.length,
    warnings,
  };
}
