import { notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { deleteAttachedRelationships, deleteDanglingConnections, deleteFolderItems } from "../cascade.ts";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { deleteProperties } from "../properties/values.ts";

/** Deletes the element, its relationships (and those attached to them), its view nodes and their connections. */
export async function deleteElement({ ctx, input }: Verb<{ id: string }>): Promise<void> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  await database.db.transaction(async (tx) => {
    const [gone] = await database.rows(
      sql`delete from elements where workspace_id = ${ws} and id = ${input.id} returning id`,
      tx,
    );
    if (!gone) throw notFound("Element", input.id);
    await deleteAttachedRelationships(database, tx, ws, [input.id]);
    await deleteProperties(database, tx, ws, "element", [input.id]);
    await deleteFolderItems(database, tx, ws, [input.id]);
    await deleteDanglingConnections(database, tx, ws);
  });
}
