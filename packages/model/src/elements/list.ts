import { invalid, JsonBody } from "@ams/shared";
import { type SQL, sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { type CopyColumn, CopyJsonArray } from "../copy-json.ts";
import { atRevision } from "../list-memory.ts";
import type { ListWindow } from "../list-shape.ts";
import type { ElementPage } from "../pages.ts";
import { ownPropertiesLateral, propertiesCopyColumn, propertiesJoin, propsFromJson } from "../properties/values.ts";
import { type ElementRow, parseElementType, toElement } from "./internal.ts";
import type { Element, ListElementsPageQuery, ListElementsQuery, TypeNames } from "./schemas.ts";

type ElementListRow = ElementRow & { props: [string, string, string][] | null };

/**
 * The statement behind listElements, exported so the scaling bench and the query-plan test run exactly what the verb
 * runs. A page (`limit`) reads its properties row by row through the (workspace, kind, owner) key, so its cost stays
 * that of its own rows; the whole list aggregates the workspace's property values once instead, which is cheaper
 * than one lookup per element when every element is answered anyway.
 */
export function elementListQuery(workspaceId: string, input: ListElementsPageQuery & { offset?: number }): SQL {
  const paged = input.limit !== undefined;
  const props = paged
    ? sql`left join ${ownPropertiesLateral(workspaceId, "element", sql`e.id`)} p on true`
    : sql`left join ${propertiesJoin(workspaceId, "element")} p on p.owner_id = e.id`;
  // The columns in the order of the answer's keys: the whole list is also written from COPY's output column by column.
  return sql`select e.id, e.type, e.name, e.documentation, p.props, e.revision from elements e
        ${props}
        where ${elementFilter(workspaceId, input)}
        ${input.after ? sql`and e.ord > (select a.ord from elements a where a.workspace_id = ${workspaceId} and a.id = ${input.after})` : sql``}
        order by e.ord
        ${paged ? sql`limit ${input.limit}` : sql``}
        ${input.offset ? sql`offset ${input.offset}` : sql``}`;
}

/** The type and name filters of the element list, on `e`. */
function elementFilter(workspaceId: string, input: ListElementsQuery): SQL {
  const type = input.type ? parseElementType(input.type) : null;
  const pattern = input.name ? `%${input.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return sql`e.workspace_id = ${workspaceId}
        ${type ? sql`and e.type = ${type}` : sql``}
        ${pattern ? sql`and e.name ilike ${pattern}` : sql``}`;
}

/**
 * One window of the (filtered) element list, read in the database, and how many elements match (MCP paging): the
 * window's rows and their own property values only, whatever the model's size.
 */
export async function pageElements({ ctx, input }: Verb<ListElementsQuery & ListWindow>): Promise<ElementPage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return atRevision(ctx.database, ws, "pageElements", input, async () => {
    const [rows, counted] = await Promise.all([
      ctx.database.rows<ElementListRow>(elementListQuery(ws, input)),
      ctx.database.rows<{ n: number }>(
        sql`select count(*)::int as n from elements e where ${elementFilter(ws, input)}`,
      ),
    ]);
    return { items: rows.map((r) => toElement(r, propsFromJson(r.props))), total: counted[0]?.n ?? 0 };
  });
}

export async function listElements({ ctx, input }: Verb<ListElementsPageQuery>): Promise<Element[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return atRevision(ctx.database, ws, "listElements", input, () => readElements(ctx, ws, input));
}

async function readElements(ctx: RequestContext, ws: string, input: ListElementsPageQuery): Promise<Element[]> {
  const rows = await ctx.database.rows<ElementListRow>(elementListQuery(ws, input));
  // An unknown `after` matches no row; only an empty page pays for telling it apart from the end of the list.
  if (rows.length === 0 && input.after) await requireElement(ctx, ws, input.after);
  return rows.map((r) => toElement(r, propsFromJson(r.props)));
}

/** How COPY's columns of `elementListQuery` become an element's keys (the properties typed as `propsFromJson` does). */
const elementCopyColumns: CopyColumn[] = [
  { key: "id", as: "string" },
  { key: "type", as: "string" },
  { key: "name", as: "string" },
  { key: "documentation", as: "string" },
  propertiesCopyColumn,
  { key: "revision", as: "integer" },
];

/**
 * `GET /api/elements` as its JSON bytes: what `JSON.stringify(await listElements(...))` answers, byte for byte. On
 * PostgreSQL the whole list (no `limit`, no type or name filter) is written straight from COPY's output as it arrives
 * (see `CopyJsonArray`): no string or object per value, and this thread writes while the database still sends; the
 * 100k-element list takes about two thirds of the time. A COPY is planned anew each time (it cannot be a prepared
 * statement), which costs more than it saves on a short answer, so a page, a filtered list (often short) and the
 * embedded database serialize the elements.
 */
export async function listElementsJson({ ctx, input }: Verb<ListElementsPageQuery>): Promise<JsonBody> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  return atRevision(ctx.database, ws, "listElementsJson", input, async () => {
    if (!ctx.database.copyOut || input.limit !== undefined || input.type || input.name) {
      return new JsonBody(JSON.stringify(await readElements(ctx, ws, input)));
    }
    const json = new CopyJsonArray(elementCopyColumns);
    await ctx.database.copyOut(elementListQuery(ws, input), (piece) => json.push(piece));
    if (json.count === 0 && input.after) await requireElement(ctx, ws, input.after);
    return new JsonBody(json.end());
  });
}

async function requireElement(ctx: RequestContext, workspaceId: string, id: string) {
  const [found] = await ctx.database.rows(
    sql`select 1 from elements where workspace_id = ${workspaceId} and id = ${id}`,
  );
  if (!found)
    throw invalid(
      "query.after",
      `no element '${id}' in this workspace (it may have been deleted; start again without after)`,
    );
}

export async function listElementTypes({ ctx }: Verb): Promise<TypeNames> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<{ type: string }>(
    sql`select distinct type from elements where workspace_id = ${ws} order by type`,
  );
  return rows.map((r) => r.type);
}
