import type { Database } from "@ams/db";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { ModelDocument } from "../exchange/document.ts";
import { parseExchange } from "../exchange/parse.ts";
import { importVia, withClosedChange } from "../history/change.ts";
import { insertVersion } from "../history/versions.ts";
import { MODEL_TABLE_ORDER, type ModelChanges, type ModelTableKey, replaceModel } from "../store/write-document.ts";

/** Below this many rows an import cannot move a table's size enough to mislead the planner. */
const ANALYZE_FROM_ROWS = 1000;

/**
 * A bulk import changes the model tables by thousands of rows at once; autovacuum notices only up to a minute later.
 * Until then the planner works from the old sizes and, worse, plans cached on the small tables (sequential scans)
 * stay in use: the first renders and lists after an import would scan whole tables. ANALYZE refreshes the
 * statistics and invalidates those cached plans. An import that added or removed few rows (a re-import of a file
 * with a dozen changes) leaves the sizes as they were and skips it.
 */
export async function refreshPlannerStatistics(database: Database, changes: ModelChanges) {
  if (rowsAddedOrRemoved(changes) < ANALYZE_FROM_ROWS) return;
  await database.rows(
    sql`analyze elements, relationships, views, view_nodes, connections, property_values, property_definitions, folders`,
  );
}

const rowsAddedOrRemoved = (changes: ModelChanges) =>
  MODEL_TABLE_ORDER.reduce((n, key) => n + changes[key].added + changes[key].removed, 0);

/** The change group's line for a workspace created from a file. */
export function importSummary(document: ModelDocument): string {
  const name = document.model.name ? ` '${document.model.name}'` : "";
  return `Imported model${name}: ${document.elements.length} elements, ${document.relationships.length} relationships, ${document.views.length} views`;
}

/** How the history names each table's objects (singular, plural), in the order the summary lists them. */
const NOUNS: [ModelTableKey, string, string][] = [
  ["elements", "element", "elements"],
  ["relationships", "relationship", "relationships"],
  ["views", "view", "views"],
  ["nodes", "node", "nodes"],
  ["connections", "connection", "connections"],
  ["properties", "property value", "property values"],
  ["propertyDefinitions", "property definition", "property definitions"],
  ["folders", "folder entry", "folder entries"],
];

/**
 * The change group's line for an import over a workspace: what it did, per kind of object
 * ("Imported ArchiMetal.xml: 3 elements added, 12 changed, 1 removed; 2 nodes changed").
 */
export function importChangesSummary(source: string, changes: ModelChanges): string {
  const parts: string[] = [];
  for (const [key, one, many] of NOUNS) {
    const c = changes[key];
    const counts = (
      [
        [c.added, "added"],
        [c.changed, "changed"],
        [c.removed, "removed"],
      ] as const
    ).filter(([n]) => n > 0);
    if (counts.length === 0) continue;
    const [[first, verb], ...rest] = counts as [readonly [number, string], ...(readonly [number, string])[]];
    parts.push([`${first} ${first === 1 ? one : many} ${verb}`, ...rest.map(([n, v]) => `${n} ${v}`)].join(", "));
  }
  if (changes.model) parts.push("model details changed");
  return `Imported ${source}: ${parts.length ? parts.join("; ") : "no changes"}`;
}

/** Objects (rows of every kind) an import added, changed and removed. */
export function importTotals(changes: ModelChanges) {
  const sum = (field: "added" | "changed" | "removed") =>
    MODEL_TABLE_ORDER.reduce((n, key) => n + changes[key][field], 0);
  return { added: sum("added"), changed: sum("changed"), removed: sum("removed") };
}

/** What an import brought in, and what it skipped or adjusted. */
export const ImportResult = z.object({
  elements: z.number().int(),
  relationships: z.number().int(),
  views: z.number().int(),
  property_definitions: z.number().int(),
  created: z.number().int().optional().describe("CSV import: elements and relationships the files created"),
  updated: z.number().int().optional().describe("CSV import: existing elements and relationships the files updated"),
  added: z
    .number()
    .int()
    .optional()
    .describe(
      "Open Exchange import: objects (elements, relationships, views, nodes, connections, property definitions and values, folder entries) the file added",
    ),
  changed: z.number().int().optional().describe("Open Exchange import: objects the file changed"),
  removed: z
    .number()
    .int()
    .optional()
    .describe("Open Exchange import: objects the workspace had that the file no longer has (removed)"),
  summary: z
    .string()
    .optional()
    .describe("Open Exchange import: the line the history records for it (what it added, changed and removed)"),
  warnings: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .describe("Parts of the document that were skipped or adjusted on import"),
  revision: z
    .number()
    .int()
    .describe("The workspace's revision after the import (unchanged when the file matched the model)"),
});
export type ImportResult = z.infer<typeof ImportResult>;

/**
 * Replaces the active workspace's model by an Open Exchange document in one transaction: the file is parsed and
 * checked completely first, so a refused or failing import leaves the previous model as it was. Only what differs
 * from the model there is written (replaceModel), so the history records what the file changed, in one group.
 */
export async function importModel({ ctx, input }: Verb<{ xml: string; fileName?: string }>): Promise<ImportResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { document, warnings } = parseExchange(input.xml);
  // One change group: the objects the file added, changed and removed. Opening it locks the workspace row, which
  // serializes concurrent imports (and every other write) into the same workspace.
  const source = input.fileName ?? (document.model.name ? `'${document.model.name}'` : "a model");
  const { out: changes, closed } = await withClosedChange(
    ctx,
    { summary: `Imported ${source}`, via: importVia(ctx) },
    async (tx, change) => {
      const changes = await replaceModel(ctx.database, tx, ws, document);
      change.summary = importChangesSummary(source, changes);
      // The state it replaced stays reachable by name: a version of the revision before, in the same transaction.
      // An import that changed nothing records no group (as any write that changes nothing: its revision is given
      // back), so there is no state before it to name either.
      const totals = importTotals(changes);
      if (totals.added + totals.changed + totals.removed > 0 || changes.model) {
        await insertVersion(
          ctx,
          ws,
          { name: `Before import of ${source}`.slice(0, 200), automatic: true, revision: (await change.revision) - 1 },
          tx,
        );
      }
      return changes;
    },
  );
  await refreshPlannerStatistics(ctx.database, changes);
  return {
    elements: document.elements.length,
    relationships: document.relationships.length,
    views: document.views.length,
    property_definitions: document.propertyDefinitions.length,
    ...importTotals(changes),
    summary: closed.summary,
    warnings,
    revision: closed.revision,
  };
}
