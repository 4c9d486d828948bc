import { JsonBody } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { type CopyColumn, CopyJsonArray } from "../copy-json.ts";
import { getElementRow } from "../elements/internal.ts";
import type { TypeNames } from "../elements/schemas.ts";
import { atRevision } from "../list-memory.ts";
import { type ListWindow, readWindow } from "../list-shape.ts";
import type { RelationshipPage } from "../pages.ts";
import {
  ownPropertiesLateral,
  propertiesCopyColumn,
  propertiesJoin,
  propsFromJson,
  readProperties,
} from "../properties/values.ts";
import { parseRelationshipType, type RelationshipRow, relationshipColumns, toRelationship } from "./internal.ts";
import type { ListRelationshipsQuery, Relationship } from "./schemas.ts";

export async function listRelationships({ ctx, input }: Verb<ListRelationshipsQuery>): Promise<Relationship[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return atRevision(ctx.database, ws, "listRelationships", input, () => readRelationships(ctx, ws, input));
}

async function readRelationships(ctx: RequestContext, ws: string, input: ListRelationshipsQuery) {
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

/**
 * How COPY's columns of the whole relationship list become a relationship's keys, in toRelationship's order: the
 * properties typed as readProperties types them, and the three keys only some types carry left out where the
 * statement answers null for them.
 */
const relationshipCopyColumns: CopyColumn[] = [
  { key: "id", as: "string" },
  { key: "type", as: "string" },
  { key: "source", as: "string" },
  { key: "target", as: "string" },
  { key: "name", as: "string" },
  { key: "documentation", as: "string" },
  propertiesCopyColumn,
  { key: "revision", as: "integer" },
  { key: "is_directed", as: "optional", write: (value) => (value === "t" ? "true" : "false") },
  { key: "access_type", as: "optional", write: (value) => JSON.stringify(value) },
  { key: "influence_strength", as: "optional", write: (value) => JSON.stringify(value) },
];

/**
 * `GET /api/relationships` as its JSON bytes: what `JSON.stringify(await listRelationships(...))` answers, byte for
 * byte. The whole list (no filter) on PostgreSQL is written from COPY's output as it arrives, as the element list is
 * (see listElementsJson); a filtered list and the embedded database serialize the relationships.
 */
export async function listRelationshipsJson({ ctx, input }: Verb<ListRelationshipsQuery>): Promise<JsonBody> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return atRevision(ctx.database, ws, "listRelationshipsJson", input, async () => {
    if (!ctx.database.copyOut || input.type || input.source_id || input.target_id) {
      return new JsonBody(JSON.stringify(await readRelationships(ctx, ws, input)));
    }
    const json = new CopyJsonArray(relationshipCopyColumns);
    await ctx.database.copyOut(
      sql`select r.id, r.type, r.source_id, r.target_id, r.name, r.documentation, p.props, r.revision,
            case when r.type = 'Association' then coalesce(r.is_directed, false) end,
            case when r.type = 'Access' then coalesce(r.access_type, 'Write') end,
            case when r.type = 'Influence' then r.influence_strength end
          from relationships r
          left join ${propertiesJoin(ws, "relationship")} p on p.owner_id = r.id
          where r.workspace_id = ${ws}
          order by r.ord`,
      (piece) => json.push(piece),
    );
    return new JsonBody(json.end());
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
