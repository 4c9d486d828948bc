import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { getElementRow } from "../elements/internal.ts";
import { readProperties } from "../properties/values.ts";
import { parseRelationshipType, type RelationshipRow, relationshipColumns, toRelationship } from "./internal.ts";
import type { ListRelationshipsQuery } from "./schemas.ts";

export async function listRelationships({ ctx, input }: Verb<ListRelationshipsQuery>) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const type = input.type ? parseRelationshipType(input.type) : null;
  const [rows, props] = await Promise.all([
    ctx.database.rows<RelationshipRow>(
      sql`select ${relationshipColumns} from relationships where workspace_id = ${ws}
          ${type ? sql`and type = ${type}` : sql``}
          ${input.source_id ? sql`and source_id = ${input.source_id}` : sql``}
          ${input.target_id ? sql`and target_id = ${input.target_id}` : sql``}
          order by ord`,
    ),
    readProperties(ctx.database, ws, "relationship"),
  ]);
  return rows.map((r) => toRelationship(r, props.get(r.id)));
}

export async function listRelationshipTypes({ ctx }: Verb) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<{ type: string }>(
    sql`select distinct type from relationships where workspace_id = ${ws} order by type`,
  );
  return rows.map((r) => r.type);
}

/** Relationships whose source or target is the element. */
export async function getElementRelationships({ ctx, input }: Verb<{ id: string }>) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  await getElementRow(ctx.database, ws, input.id);
  const [rows, props] = await Promise.all([
    ctx.database.rows<RelationshipRow>(
      sql`select ${relationshipColumns} from relationships where workspace_id = ${ws}
          and (source_id = ${input.id} or target_id = ${input.id}) order by ord`,
    ),
    readProperties(ctx.database, ws, "relationship"),
  ]);
  return rows.map((r) => toRelationship(r, props.get(r.id)));
}
