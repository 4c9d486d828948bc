import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { readProperties } from "../properties/values.ts";
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
} from "./internal.ts";
import type { ViewDetail, ViewSummary } from "./outputs.ts";

export async function listViews({ ctx }: Verb): Promise<ViewSummary[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const [rows, props] = await Promise.all([
    ctx.database.rows<ViewRow>(
      sql`select id, name, viewpoint, documentation from views where workspace_id = ${ws} order by ord`,
    ),
    readProperties(ctx.database, ws, "view"),
  ]);
  return rows.map((r) => toView(r, props.get(r.id)));
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
