import type { Database, DbOrTx } from "@ams/db";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { SYSTEM_ICON_PACK_ID } from "../properties/definitions.ts";
import { renderViewSvg } from "../render/render-view.ts";
import type { RenderConnection, RenderInput, RenderNode } from "../render/types.ts";
import { getViewRow } from "./internal.ts";

/**
 * Reads only this view's rows (nodes with their elements, connections with their relationships) in three queries.
 * The joins are LATERAL ... LIMIT 1 on purpose: one primary-key lookup per node or connection, whatever the size of
 * the model, where a plain join lets the planner hash whole small tables (cheap today, but proportional to the model).
 */
export async function loadRenderInput(
  database: Database,
  ws: string,
  viewId: string,
  on?: DbOrTx,
): Promise<RenderInput> {
  const [view, nodeRows, connRows] = await Promise.all([
    getViewRow(database, ws, viewId, on),
    database.rows<RenderNode & { etype: string | null; ename: string | null; icon: string | null }>(
      sql`select n.id, n.kind, n.x, n.y, n.w, n.h, n.parent_id as "parentId", n.label, n.style,
            e.type as etype, e.name as ename, pv.value as icon
          from view_nodes n
          left join lateral (select type, name from elements e where e.workspace_id = n.workspace_id
            and e.id = n.element_id limit 1) e on true
          left join lateral (select value from property_values v where v.workspace_id = n.workspace_id
            and v.owner_kind = 'element' and v.owner_id = n.element_id and v.definition_id = ${SYSTEM_ICON_PACK_ID}
            order by v.ord limit 1) pv on true
          where n.workspace_id = ${ws} and n.view_id = ${viewId} order by n.ord`,
      on,
    ),
    database.rows<
      RenderConnection & {
        rtype: string | null;
        rname: string | null;
        access: string | null;
        directed: boolean | null;
        strength: string | null;
      }
    >(
      sql`select c.id, c.kind, c.source_id as "sourceId", c.target_id as "targetId", c.bendpoints, c.label, c.style,
            r.type as rtype, r.name as rname, r.access_type as access, r.is_directed as directed, r.influence_strength as strength
          from connections c
          left join lateral (select type, name, access_type, is_directed, influence_strength from relationships r
            where r.workspace_id = c.workspace_id and r.id = c.relationship_id limit 1) r on true
          where c.workspace_id = ${ws} and c.view_id = ${viewId} order by c.ord`,
      on,
    ),
  ]);
  const nodes: RenderNode[] = nodeRows.map((n) => ({
    id: n.id,
    kind: n.kind,
    x: n.x,
    y: n.y,
    w: n.w,
    h: n.h,
    parentId: n.parentId,
    label: n.label,
    style: n.style,
    element: n.etype ? { type: n.etype, name: n.ename ?? "", iconPack: n.icon } : null,
  }));
  const connections: RenderConnection[] = connRows.map((c) => ({
    id: c.id,
    kind: c.kind,
    sourceId: c.sourceId,
    targetId: c.targetId,
    bendpoints: c.bendpoints,
    label: c.label,
    style: c.style,
    relationship: c.rtype
      ? { type: c.rtype, name: c.rname, accessType: c.access, isDirected: c.directed, influenceStrength: c.strength }
      : null,
  }));
  return { view: { id: view.id, name: view.name, documentation: view.documentation }, nodes, connections };
}

/** The view as a standalone SVG document in ArchiMate notation. */
export async function renderView({ ctx, input }: Verb<{ id: string }>): Promise<string> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const data = await loadRenderInput(ctx.database, ws, input.id);
  return renderViewSvg(data, { resolveIcon: ctx.resolveIcon });
}
