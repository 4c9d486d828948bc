import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { ListWindow } from "../list-shape.ts";
import type { ViewReferencePage } from "../pages.ts";
import { readProperties } from "../properties/values.ts";
import { viewReferences, viewReferencesWindow } from "../views/references.ts";
import type { ViewReference } from "../views/schemas.ts";
import { getRelationshipRow, toRelationship } from "./internal.ts";
import type { Relationship } from "./schemas.ts";

export async function getRelationship({ ctx, input }: Verb<{ id: string }>): Promise<Relationship> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const [row, props] = await Promise.all([
    getRelationshipRow(ctx.database, ws, input.id),
    readProperties(ctx.database, ws, "relationship", input.id),
  ]);
  return toRelationship(row, props.get(row.id));
}

/** Views that draw the relationship as a connection. */
export async function getRelationshipViews({ ctx, input }: Verb<{ id: string }>): Promise<ViewReference[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  await getRelationshipRow(ctx.database, ws, input.id);
  return viewReferences(ctx.database, drawing(ws, input.id));
}

/** One window of the views drawing the relationship, read in the database, and how many there are (MCP paging). */
export async function pageRelationshipViews({
  ctx,
  input,
}: Verb<{ id: string } & ListWindow>): Promise<ViewReferencePage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  await getRelationshipRow(ctx.database, ws, input.id);
  return viewReferencesWindow(ctx.database, drawing(ws, input.id), input);
}

const drawing = (ws: string, relationshipId: string) =>
  sql`v.workspace_id = ${ws} and exists (select 1 from connections c
        where c.workspace_id = v.workspace_id and c.view_id = v.id and c.relationship_id = ${relationshipId})`;
