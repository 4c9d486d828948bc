import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { getElementRow } from "../elements/internal.ts";
import type { TypeNames } from "../elements/schemas.ts";
import { ownPropertiesLateral, propsFromJson, readProperties } from "../properties/values.ts";
import { parseRelationshipType, type RelationshipRow, relationshipColumns, toRelationship } from "./internal.ts";
import type { ListRelationshipsQuery, Relationship } from "./schemas.ts";

export async function listRelationships({ ctx, input }: Verb<ListRelationshipsQuery>): Promise<Relationship[]> {
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

export async function listRelationshipTypes({ ctx }: Verb): Promise<TypeNames> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<{ type: string }>(
    sql`select distinct type from relationships where workspace_id = ${ws} order by type`,
  );
  return rows.map((r) => r.type);
}

/** Relationships whose source or target is the element. */
export async function getElementRelationships({ ctx, input }: Verb<{ id: string }>): Promise<Relationship[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  await getElementRow(ctx.database, ws, input.id);
  // Property values of these relationships only, looked up per row: reading the workspace's whole relationship
  // property list (as the full list does) made one element's answer cost as much as the model's.
  const rows = await ctx.database.rows<RelationshipRow & { props: [string, string, string][] | null }>(
    sql`select ${relationshipColumns}, p.props from relationships r
        left join ${ownPropertiesLateral(ws, "relationship", sql`r.id`)} p on true
        where r.workspace_id = ${ws} and (r.source_id = ${input.id} or r.target_id = ${input.id}) order by r.ord`,
  );
  return rows.map((r) => toRelationship(r, propsFromJson(r.props)));
}
