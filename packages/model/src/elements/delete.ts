import { notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { deleteAttachedRelationships, deleteDanglingConnections, deleteFolderItems } from "../cascade.ts";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { withChangeResult } from "../history/change.ts";
import type { ExpectedRevision } from "../history/expect.ts";
import type { ChangeResult } from "../history/schemas.ts";
import { deleteProperties } from "../properties/values.ts";
import { expectElement } from "./internal.ts";

/**
 * Deletes the element, its relationships (and those attached to them), its view nodes and their connections: one
 * change group holding every removed object, so the history shows (and a revert brings back) all of it at once.
 */
export async function deleteElement({ ctx, input }: Verb<{ id: string } & ExpectedRevision>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChangeResult(ctx, { summary: `Deleted element '${input.id}'` }, async (tx, change) => {
    await expectElement(database, tx, ws, input.id, input.expected_revision);
    const [gone] = await database.rows<{ type: string; name: string }>(
      sql`delete from elements where workspace_id = ${ws} and id = ${input.id} returning type, name`,
      tx,
    );
    if (!gone) throw notFound("Element", input.id);
    change.summary = `Deleted ${gone.type} '${gone.name}'`;
    await deleteAttachedRelationships(database, tx, ws, [input.id]);
    await deleteProperties(database, tx, ws, "element", [input.id]);
    await deleteFolderItems(database, tx, ws, [input.id]);
    await deleteDanglingConnections(database, tx, ws);
  });
}
