import { notFound } from "@ams/shared";
import { type SQL, sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { ListWindow } from "../list-shape.ts";
import type { ViewReferencePage } from "../pages.ts";
import { ownPropertiesLateral, propsFromJson } from "../properties/values.ts";
import { viewReferences, viewReferencesWindow } from "../views/references.ts";
import type { ViewReference } from "../views/schemas.ts";
import { type ElementRow, getElementRow, toElement } from "./internal.ts";
import type { Element } from "./schemas.ts";

/** The statement behind getElement, exported so the scaling bench and the query-plan test run what the verb runs. */
export const elementByIdQuery = (workspaceId: string, id: string): SQL =>
  sql`select e.id, e.type, e.name, e.documentation, e.revision, p.props from elements e
        left join ${ownPropertiesLateral(workspaceId, "element", sql`e.id`)} p on true
        where e.workspace_id = ${workspaceId} and e.id = ${id}`;

export async function getElement({ ctx, input }: Verb<{ id: string }>): Promise<Element> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const [row] = await ctx.database.rows<ElementRow & { props: [string, string, string][] | null }>(
    elementByIdQuery(ws, input.id),
  );
  if (!row) throw notFound("Element", input.id);
  return toElement(row, propsFromJson(row.props));
}

/** Views that show the element in at least one node. */
export async function getElementViews({ ctx, input }: Verb<{ id: string }>): Promise<ViewReference[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  await getElementRow(ctx.database, ws, input.id);
  return viewReferences(ctx.database, showing(ws, input.id));
}

/** One window of the views showing the element, read in the database, and how many there are (MCP paging). */
export async function pageElementViews({ ctx, input }: Verb<{ id: string } & ListWindow>): Promise<ViewReferencePage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  await getElementRow(ctx.database, ws, input.id);
  return viewReferencesWindow(ctx.database, showing(ws, input.id), input);
}

const showing = (ws: string, elementId: string) =>
  sql`v.workspace_id = ${ws} and exists (select 1 from view_nodes n
        where n.workspace_id = v.workspace_id and n.view_id = v.id and n.element_id = ${elementId})`;
