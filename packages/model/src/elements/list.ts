import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { propertiesJoin, propsFromJson } from "../properties/values.ts";
import { type ElementRow, parseElementType, toElement } from "./internal.ts";
import type { ListElementsQuery } from "./schemas.ts";

export async function listElements({ ctx, input }: Verb<ListElementsQuery>) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const type = input.type ? parseElementType(input.type) : null;
  const pattern = input.name ? `%${input.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await ctx.database.rows<ElementRow & { props: [string, string, string][] | null }>(
    sql`select e.id, e.type, e.name, e.documentation, p.props from elements e
        left join ${propertiesJoin(ws, "element")} p on p.owner_id = e.id
        where e.workspace_id = ${ws}
        ${type ? sql`and e.type = ${type}` : sql``}
        ${pattern ? sql`and e.name ilike ${pattern}` : sql``}
        order by e.ord`,
  );
  return rows.map((r) => toElement(r, propsFromJson(r.props)));
}

export async function listElementTypes({ ctx }: Verb) {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<{ type: string }>(
    sql`select distinct type from elements where workspace_id = ${ws} order by type`,
  );
  return rows.map((r) => r.type);
}
