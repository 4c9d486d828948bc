import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { getElementRow } from "../elements/internal.ts";
import type { TypeNames } from "../elements/schemas.ts";
import { atRevision } from "../list-memory.ts";
import { type ListWindow, readWindow } from "../list-shape.ts";
import type { RelationshipPage } from "../pages.ts";
import { ownPropertiesLateral, propsFromJson, readProperties } from "../properties/values.ts";
import { parseRelationshipType, type RelationshipRow, relationshipColumns, toRelationship } from "./internal.ts";
import type { ListRelationshipsQuery, Relationship } from "./schemas.ts";

export async function listRelationships({ ctx, input }: Verb<ListRelationshipsQuery>): Promise<Relationship[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const type = input.type ? parseRelationshipType(input.type) : null;
  return atRevision(ctx.database, ws, "listRelationships", input, async () => {
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
  });
}

/**
 * One window of the (filtered) relationship list, read in the database with the window's own property values, and
 * how many relationships match (MCP paging).
 */
export async function pageRelationships({
  ctx,
  input,
}: Verb<ListRelationshipsQuery & ListWindow>): Promise<RelationshipPage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const type = input.type ? parseRelationshipType(input.type) : null;
  const where = sql`r.workspace_id = ${ws}
      ${type ? sql`and r.type = ${type}` : sql``}
      ${input.source_id ? sql`and r.source_id = ${input.source_id}` : sql``}
      ${input.target_id ? sql`and r.target_id = ${input.target_id}` : sql``}`;
  return atRevision(ctx.database, ws, "pageRelationships", input, async () => {
    const page = await readWindow<ElementRelationshipRow>(
      ctx.database,
      sql`select ${relationshipColumns}, p.props from relationships r
          left join ${ownPropertiesLateral(ws, "relationship", sql`r.id`)} p on true
          where ${where} order by r.ord`,
      sql`select count(*)::int as n from relationships r where ${where}`,
      input,
    );
    return { items: page.items.map((r) => toRelationship(r, propsFromJson(r.props))), total: page.total };
  });
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
  const rows = await ctx.database.rows<ElementRelationshipRow>(elementRelationshipsQuery(ws, input.id));
  return rows.map((r) => toRelationship(r, propsFromJson(r.props)));
}

/** One window of an element's relationships, read in the database, and how many there are in all (MCP paging). */
export async function pageElementRelationships({
  ctx,
  input,
}: Verb<{ id: string } & ListWindow>): Promise<RelationshipPage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  await getElementRow(ctx.database, ws, input.id);
  const page = await readWindow<ElementRelationshipRow>(
    ctx.database,
    elementRelationshipsQuery(ws, input.id),
    sql`select count(*)::int as n from relationships r where ${touching(ws, input.id)}`,
    input,
  );
  return { items: page.items.map((r) => toRelationship(r, propsFromJson(r.props))), total: page.total };
}

type ElementRelationshipRow = RelationshipRow & { props: [string, string, string][] | null };

const touching = (ws: string, id: string) =>
  sql`r.workspace_id = ${ws} and (r.source_id = ${id} or r.target_id = ${id})`;

/**
 * Property values of these relationships only, looked up per row: reading the workspace's whole relationship
 * property list (as the full list does) made one element's answer cost as much as the model's.
 */
const elementRelationshipsQuery = (ws: string, id: string) =>
  sql`select ${relationshipColumns}, p.props from relationships r
      left join ${ownPropertiesLateral(ws, "relationship", sql`r.id`)} p on true
      where ${touching(ws, id)} order by r.ord`;
