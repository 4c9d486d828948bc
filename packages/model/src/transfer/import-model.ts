import type { Database } from "@ams/db";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { ModelDocument } from "../exchange/document.ts";
import { parseExchange } from "../exchange/parse.ts";
import { importVia, withClosedChange } from "../history/change.ts";
import { insertVersion } from "../history/versions.ts";
import { replaceModel } from "../store/write-document.ts";

/** Below this many rows an import cannot move a table's size enough to mislead the planner. */
const ANALYZE_FROM_ROWS = 1000;

/**
 * A bulk import changes the model tables by thousands of rows at once; autovacuum notices only up to a minute later.
 * Until then the planner works from the old sizes and, worse, plans cached on the small tables (sequential scans)
 * stay in use: the first renders and lists after an import would scan whole tables. ANALYZE refreshes the
 * statistics and invalidates those cached plans.
 */
export async function refreshPlannerStatistics(database: Database, document: ModelDocument) {
  const rows =
    document.elements.length +
    document.relationships.length +
    document.nodes.length +
    document.connections.length +
    document.properties.length;
  if (rows < ANALYZE_FROM_ROWS) return;
  await database.rows(
    sql`analyze elements, relationships, views, view_nodes, connections, property_values, property_definitions, folders`,
  );
}

/** The change group's line for an import. */
export function importSummary(document: ModelDocument): string {
  const name = document.model.name ? ` '${document.model.name}'` : "";
  return `Imported model${name}: ${document.elements.length} elements, ${document.relationships.length} relationships, ${document.views.length} views`;
}

/** What an import brought in, and what it skipped or adjusted. */
export const ImportResult = z.object({
  elements: z.number().int(),
  relationships: z.number().int(),
  views: z.number().int(),
  property_definitions: z.number().int(),
  created: z.number().int().optional().describe("CSV import: elements and relationships the files created"),
  updated: z.number().int().optional().describe("CSV import: existing elements and relationships the files updated"),
  warnings: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .describe("Parts of the document that were skipped or adjusted on import"),
  revision: z.number().int().describe("The workspace's revision after the import"),
});
export type ImportResult = z.infer<typeof ImportResult>;

/**
 * Replaces the active workspace's model by an Open Exchange document in one transaction: the file is parsed and
 * checked completely first, so a refused or failing import leaves the previous model as it was.
 */
export async function importModel({ ctx, input }: Verb<{ xml: string; fileName?: string }>): Promise<ImportResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { document, warnings } = parseExchange(input.xml);
  // One change group: the replaced model's rows as deletions, the new ones as creations. Opening it locks the
  // workspace row, which serializes concurrent imports (and every other write) into the same workspace.
  // The state it replaces stays reachable by name: a version of the revision before, in the same transaction.
  const source = input.fileName ?? (document.model.name ? `'${document.model.name}'` : "a model");
  const { closed } = await withClosedChange(
    ctx,
    { summary: importSummary(document), via: importVia(ctx) },
    async (tx, change) => {
      await insertVersion(
        ctx,
        ws,
        { name: `Before import of ${source}`.slice(0, 200), automatic: true, revision: change.revision - 1 },
        tx,
      );
      await replaceModel(ctx.database, tx, ws, document);
    },
  );
  await refreshPlannerStatistics(ctx.database, document);
  return {
    elements: document.elements.length,
    relationships: document.relationships.length,
    views: document.views.length,
    property_definitions: document.propertyDefinitions.length,
    warnings,
    revision: closed.revision,
  };
}
