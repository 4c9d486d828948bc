import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { type ListWindow, readWindow } from "../list-shape.ts";
import type { ViewSummaryPage } from "../pages.ts";
import { ownPropertiesLateral, propsFromJson, readProperties } from "../properties/values.ts";
import {
  type ConnectionRow,
  connectionColumns,
  getViewRow,
  type NodeRow,
  nodeColumns,
  nodeTree,
  toConnection,
  toView,
  type ViewRow,
  viewColumns,
} from "./internal.ts";
import type { ViewDetail, ViewSummary } from "./outputs.ts";

export async function listViews({ ctx }: Verb): Promise<ViewSummary[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const [rows, props] = await Promise.all([
    ctx.database.rows<ViewRow>(sql`select ${viewColumns} from views where workspace_id = ${ws} order by ord`),
    readProperties(ctx.database, ws, "view"),
  ]);
  return rows.map((r) => toView(r, props.get(r.id)));
}

/** One window of the view list, read in the database with the window's own property values (MCP paging). */
export async function pageViews({ ctx, input }: Verb<ListWindow>): Promise<ViewSummaryPage> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const page = await readWindow<ViewRow & { props: [string, string, string][] | null }>(
    ctx.database,
    // Not aliased v: the lateral's property_values are.
    sql`select w.id, w.name, w.viewpoint, w.documentation, w.revision, p.props from views w
        left join ${ownPropertiesLateral(ws, "view", sql`w.id`)} p on true
        where w.workspace_id = ${ws} order by w.ord`,
    sql`select count(*)::int as n from views where workspace_id = ${ws}`,
    input,
  );
  return { items: page.items.map(({ props, ...r }) => toView(r, propsFromJson(props))), total: page.total };
}

/** The view with its node tree and its connections, each in drawing order. */
export async function getView({ ctx, input }: Verb<{ id: string }>): Promise<ViewDetail> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  const [view, nodes, connections, props] = await Promise.all([
    getViewRow(database, ws, input.id),
    database.rows<NodeRow>(
      sql`select ${nodeColumns} from view_nodes where workspace_id = ${ws} and view_id = ${input.id} order by ord`,
    ),
    database.rows<ConnectionRow>(
      sql`select ${connectionColumns} from connections where workspace_id = ${ws} and view_id = ${input.id} order by ord`,
    ),
    readProperties(database, ws, "view", input.id),
  ]);
  return { ...toView(view, props.get(view.id)), nodes: nodeTree(nodes), connections: connections.map(toConnection) };
}
