import { notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { deleteAttachedRelationships, deleteDanglingConnections, deleteFolderItems } from "../cascade.ts";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { withChangeResult } from "../history/change.ts";
import type { ExpectedRevision } from "../history/expect.ts";
import type { ChangeResult } from "../history/schemas.ts";
import { deleteProperties } from "../properties/values.ts";
import { expectRelationship } from "./internal.ts";

/** Deletes the relationship, relationships attached to it, and the connections that drew them. */
export async function deleteRelationship({
  ctx,
  input,
}: Verb<{ id: string } & ExpectedRevision>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChangeResult(ctx, { summary: `Deleted relationship '${input.id}'` }, async (tx, change) => {
    await expectRelationship(database, tx, ws, input.id, input.expected_revision);
    const [gone] = await database.rows<{ type: string; name: string | null }>(
      sql`delete from relationships where workspace_id = ${ws} and id = ${input.id} returning type, name`,
      tx,
    );
    if (!gone) throw notFound("Relationship", input.id);
    change.summary = `Deleted ${gone.type} relationship '${gone.name || input.id}'`;
    await deleteAttachedRelationships(database, tx, ws, [input.id]);
    await deleteProperties(database, tx, ws, "relationship", [input.id]);
    await deleteFolderItems(database, tx, ws, [input.id]);
    await deleteDanglingConnections(database, tx, ws);
  });
}
