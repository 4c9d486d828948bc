import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";

export const FolderItem = z.object({
  id: z.number().int(),
  parent_id: z.number().int().nullable().describe("Enclosing folder; null at the top"),
  label: z.string().nullable().describe("Folder name; null for an item that refers to a concept"),
  ref_id: z.string().nullable().describe("The element, relationship or view this item refers to"),
});
export type FolderItem = z.infer<typeof FolderItem>;

/**
 * The model's organization tree as imported from an Open Exchange file (its <organizations>): folders and the
 * concepts filed in them, in file order. Empty for a model that was never imported with one.
 */
export async function listFolders({ ctx }: Verb): Promise<FolderItem[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return ctx.database.rows<FolderItem>(
    sql`select id, parent_id, label, ref_id from folders where workspace_id = ${ws} order by parent_id nulls first, ord`,
  );
}
