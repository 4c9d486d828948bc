import { z } from "zod";
import { ChangeResult } from "../history/schemas.ts";
import { Documentation, Identifier, Name, PropertiesInput } from "../schemas.ts";

/** Most rows one bulk edit names: the largest model the table shows. */
export const BULK_MAX_ROWS = 100_000;

export const TableKind = z.enum(["elements", "relationships"]);
export type TableKind = z.infer<typeof TableKind>;

export const TableQuery = z.strictObject({
  kind: TableKind.default("elements").describe("Which grid: the workspace's elements or its relationships"),
});
export type TableQuery = z.infer<typeof TableQuery>;

const TypedValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The whole table of a workspace's elements or relationships, column by column (one array per field, row i of every
 * array is row i of the table), so 100k rows travel as a few long arrays instead of 100k objects with repeated keys.
 * Types are dictionary-coded; property values are sparse per definition (the rows that have one, and the value).
 */
export const TableData = z.object({
  kind: TableKind,
  revision: z.number().int().describe("The workspace revision the table shows"),
  count: z.number().int(),
  types: z.array(z.string()).describe("The type names the `type` column indexes into"),
  id: z.array(z.string()),
  type: z.array(z.number().int()),
  name: z.array(z.string()),
  documentation: z.array(z.string().nullable()),
  row_revision: z.array(z.number().int()).describe("Each row's revision, for expected_revisions of a bulk edit"),
  source: z.array(z.string()).optional().describe("Relationships: the source's id"),
  target: z.array(z.string()).optional().describe("Relationships: the target's id"),
  source_name: z.array(z.string()).optional().describe("Relationships: the source's name"),
  target_name: z.array(z.string()).optional().describe("Relationships: the target's name"),
  properties: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type: z.string(),
      allowed_values: z.array(z.string()).nullable(),
      rows: z.array(z.number().int()).describe("Row indexes that have a value"),
      values: z.array(TypedValue).describe("The value of each of those rows"),
    }),
  ),
});
export type TableData = z.infer<typeof TableData>;

const BulkRow = z.strictObject({
  id: Identifier,
  name: Name.optional(),
  type: z.string().min(1).max(100).optional(),
  documentation: Documentation.optional(),
  properties: PropertiesInput.optional(),
});
export type BulkRow = z.infer<typeof BulkRow>;

export const BulkEditInput = z
  .strictObject({
    kind: z.enum(["element", "relationship"]).default("element").describe("What the ids name"),
    ids: z.array(Identifier).min(1).max(BULK_MAX_ROWS).optional().describe("The rows `set` or `delete` applies to"),
    set: z
      .strictObject({
        type: z.string().min(1).max(100).optional(),
        documentation: Documentation.optional(),
        properties: PropertiesInput.optional(),
      })
      .optional()
      .describe(
        "The same change on every row of `ids`: a type (refused, naming the relationship, if a relationship " +
          "would become invalid under ArchiMate 3.1), documentation, property values (null removes one)",
      ),
    delete: z.literal(true).optional().describe("Delete every row of `ids` (with their relationships and view nodes)"),
    rows: z
      .array(BulkRow)
      .min(1)
      .max(BULK_MAX_ROWS)
      .optional()
      .describe("A value per row (a pasted block, an edited cell): name, type, documentation, properties"),
    expected_revisions: z
      .record(Identifier, z.number().int().min(0))
      .optional()
      .describe("Row id → the revision the caller last saw: the edit happens only if every such row is still at it"),
  })
  .superRefine((v, ctx) => {
    const actions = [v.set, v.delete, v.rows].filter((a) => a !== undefined).length;
    if (actions !== 1) ctx.addIssue({ code: "custom", path: [], message: "give exactly one of set, delete or rows" });
    if ((v.set || v.delete) && !v.ids)
      ctx.addIssue({ code: "custom", path: ["ids"], message: "set and delete need the ids of the rows" });
    if (v.rows && v.ids)
      ctx.addIssue({ code: "custom", path: ["ids"], message: "rows name their own ids; leave ids out" });
  });
export type BulkEditInput = z.input<typeof BulkEditInput>;

export const BulkEditResult = ChangeResult.extend({
  rows: z.number().int().describe("Rows the edit changed or deleted"),
});
export type BulkEditResult = z.infer<typeof BulkEditResult>;
