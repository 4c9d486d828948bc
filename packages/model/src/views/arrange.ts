import type { Database, DbOrTx } from "@ams/db";
import { ELEMENT_TYPES, invalid, mustExist } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { withClosedChange } from "../history/change.ts";
import { newId } from "../ids.ts";
import { type LayoutEdge, type LayoutNode, layeredLayout, type Point } from "../layout/layered.ts";
import type { AddToViewInput, AddToViewResult, AutoLayoutResult } from "./arrange-schemas.ts";
import { getViewRow } from "./internal.ts";

/** ArchiMate's reading order, top to bottom; Composite (grouping, location, junctions) has no band of its own. */
const BAND: Record<string, number> = {
  Motivation: 0,
  Strategy: 1,
  Business: 2,
  Application: 3,
  Technology: 4,
  Physical: 5,
  Implementation: 6,
};
const bandOf = new Map(ELEMENT_TYPES.map((t) => [t.name as string, BAND[t.layer]]));

const NODE = { w: 120, h: 55 };
const GAP = 40;

type NodeBox = { id: string; parent_id: string | null; element_id: string | null; type: string | null } & Point & {
    w: number;
    h: number;
  };
type Conn = { id: string; source_id: string; target_id: string };

async function readView(database: Database, tx: DbOrTx, ws: string, viewId: string) {
  const [nodes, connections] = await Promise.all([
    database.rows<NodeBox>(
      sql`select n.id, n.parent_id, n.element_id, n.x, n.y, n.w, n.h,
            (select e.type from elements e where e.workspace_id = n.workspace_id and e.id = n.element_id) as type
          from view_nodes n where n.workspace_id = ${ws} and n.view_id = ${viewId} order by n.ord`,
      tx,
    ),
    database.rows<Conn & { relationship_id: string | null }>(
      sql`select id, source_id, target_id, relationship_id from connections
          where workspace_id = ${ws} and view_id = ${viewId} order by ord`,
      tx,
    ),
  ]);
  return { nodes, connections };
}

/** Lays out the top-level nodes of a view (nested ones move with their parents) and reroutes its connections. */
async function layoutWholeView(
  database: Database,
  tx: DbOrTx,
  ws: string,
  viewId: string,
): Promise<Omit<AutoLayoutResult, "revision">> {
  const { nodes, connections } = await readView(database, tx, ws, viewId);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const topOf = (id: string): string | undefined => {
    let n = byId.get(id);
    for (let depth = 0; n?.parent_id && depth < 200; depth++) n = byId.get(n.parent_id);
    return n?.id;
  };
  const tops = nodes.filter((n) => !n.parent_id || !byId.has(n.parent_id));
  const layoutNodes: LayoutNode[] = tops.map((n) => ({
    id: n.id,
    w: n.w,
    h: n.h,
    band: n.type ? bandOf.get(n.type) : undefined,
  }));
  const edges: LayoutEdge[] = [];
  for (const c of connections) {
    const s = topOf(c.source_id);
    const t = topOf(c.target_id);
    if (s && t && s !== t) edges.push({ id: c.id, source: s, target: t });
  }
  const layout = await layeredLayout(layoutNodes, edges);
  const moves: { id: string; x: number; y: number }[] = [];
  const delta = new Map<string, Point>();
  for (const n of tops) {
    const p = mustExist(layout.positions.get(n.id), `The laid-out position of node ${n.id}`);
    delta.set(n.id, { x: p.x - n.x, y: p.y - n.y });
  }
  for (const n of nodes) {
    const d = delta.get(topOf(n.id) ?? n.id);
    if (d && (d.x !== 0 || d.y !== 0)) moves.push({ id: n.id, x: n.x + d.x, y: n.y + d.y });
  }
  // Connections between two top-level nodes get ELK's orthogonal route; others (nested ends, connections on
  // connections) lose bend points that no longer fit and are drawn straight.
  const routes = connections.map((c) => {
    const direct = byId.get(c.source_id)?.parent_id == null && byId.get(c.target_id)?.parent_id == null;
    const points = direct ? (layout.bendpoints.get(c.id) ?? []) : [];
    return { id: c.id, bendpoints: points.length ? points : null };
  });
  await writeMoves(database, tx, ws, viewId, moves);
  if (routes.length) {
    await database.rows(
      sql`update connections c set bendpoints = r.b
          from json_to_recordset(${JSON.stringify(routes.map((r) => ({ i: r.id, b: r.bendpoints })))}::json) as r(i text, b jsonb)
          where c.workspace_id = ${ws} and c.view_id = ${viewId} and c.id = r.i`,
      tx,
    );
  }
  return {
    view_id: viewId,
    moved: moves.length,
    rerouted: routes.filter((r) => r.bendpoints).length,
    width: layout.width,
    height: layout.height,
  };
}

async function writeMoves(
  database: Database,
  tx: DbOrTx,
  ws: string,
  viewId: string,
  moves: ({ id: string } & Point)[],
) {
  if (moves.length === 0) return;
  await database.rows(
    sql`update view_nodes n set x = m.x, y = m.y
        from json_to_recordset(${JSON.stringify(moves)}::json) as m(id text, x int, y int)
        where n.workspace_id = ${ws} and n.view_id = ${viewId} and n.id = m.id`,
    tx,
  );
}

/** auto_layout_view: the whole view laid out in layers (ELK layered), ArchiMate layers top to bottom. */
export async function autoLayoutView({ ctx, input }: Verb<{ view_id: string }>): Promise<AutoLayoutResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  const { out, closed } = await withClosedChange(
    ctx,
    { summary: `Laid out view '${input.view_id}'` },
    async (tx, change) => {
      const view = await getViewRow(database, ws, input.view_id, tx);
      change.summary = `Laid out view '${view.name}'`;
      return layoutWholeView(database, tx, ws, input.view_id);
    },
  );
  return { ...out, revision: closed.revision };
}

/**
 * add_to_view: shows elements on a view in one call. New nodes are laid out among themselves and placed below the
 * view's content (nothing else moves), or the whole view is laid out again; with include_relationships every
 * relationship between these elements and the elements on the view that no connection draws yet is drawn.
 */
export async function addToView({ ctx, input }: Verb<AddToViewInput & { view_id: string }>): Promise<AddToViewResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  const wanted = [...new Set(input.element_ids)];
  const { out, closed } = await withClosedChange(
    ctx,
    { summary: `Added elements to view '${input.view_id}'` },
    async (tx, change) => {
      const view = await getViewRow(database, ws, input.view_id, tx);
      change.summary = `Added ${wanted.length === 1 ? "1 element" : `${wanted.length} elements`} to view '${view.name}'`;
      return showElements(database, tx, ws, input);
    },
  );
  return { ...out, revision: closed.revision };
}

/**
 * add_to_view's work inside a change group the caller holds (addToView's own, or createView's when a view is made
 * with its elements): nodes for the elements not yet shown, connections for the relationships among them.
 */
export async function showElements(
  database: Database,
  tx: DbOrTx,
  ws: string,
  input: Pick<AddToViewInput, "element_ids" | "include_relationships" | "layout"> & { view_id: string },
): Promise<Omit<AddToViewResult, "revision">> {
  const wanted = [...new Set(input.element_ids)];
  const found = await database.rows<{ id: string; type: string }>(
    sql`select id, type from elements where workspace_id = ${ws}
          and id in (select json_array_elements_text(${JSON.stringify(wanted)}::json))`,
    tx,
  );
  if (found.length !== wanted.length) {
    const known = new Set(found.map((e) => e.id));
    const missing = wanted.filter((id) => !known.has(id));
    throw invalid(
      "element_ids",
      `no element ${missing
        .slice(0, 10)
        .map((id) => `'${id}'`)
        .join(", ")}${missing.length > 10 ? ` and ${missing.length - 10} more` : ""} in this workspace`,
    );
  }
  const typeOf = new Map(found.map((e) => [e.id, e.type]));
  const { nodes } = await readView(database, tx, ws, input.view_id);
  const nodeOfElement = new Map<string, string>();
  for (const n of nodes) if (n.element_id && !nodeOfElement.has(n.element_id)) nodeOfElement.set(n.element_id, n.id);
  const alreadyShown = wanted.filter((id) => nodeOfElement.has(id));
  const fresh = wanted.filter((id) => !nodeOfElement.has(id));
  const created = fresh.map((elementId) => ({ id: newId(), element_id: elementId, x: 0, y: 0, ...NODE }));
  for (const n of created) nodeOfElement.set(n.element_id, n.id);

  const relationships = input.include_relationships
    ? await undrawnRelationships(database, tx, ws, input.view_id, wanted, [...nodeOfElement.keys()])
    : [];
  // Both ends are on the view by now (undrawnRelationships is given every element with a node).
  const drawn = relationships.flatMap((r) => {
    const source = nodeOfElement.get(r.source_id);
    const target = nodeOfElement.get(r.target_id);
    return source && target ? [{ id: newId(), relationship_id: r.id, source, target }] : [];
  });

  // Append: the new nodes laid out among themselves, the block placed below everything on the view.
  const bendpoints = new Map<string, Point[]>();
  if (input.layout === "append" && created.length > 0) {
    const createdIds = new Set(created.map((n) => n.id));
    const layout = await layeredLayout(
      created.map((n) => {
        const type = typeOf.get(n.element_id);
        return { id: n.id, w: n.w, h: n.h, band: type ? bandOf.get(type) : undefined };
      }),
      drawn
        .filter((c) => createdIds.has(c.source) && createdIds.has(c.target))
        .map((c) => ({ id: c.id, source: c.source, target: c.target })),
    );
    const left = nodes.length ? Math.min(...nodes.map((n) => n.x)) : 0;
    const bottom = nodes.length ? Math.max(...nodes.map((n) => n.y + n.h)) + GAP - 20 : 0;
    // ELK's own padding is 20: the block's first row lands GAP below the lowest node (20 from the top when empty).
    const dx = Math.max(0, left - 20);
    for (const n of created) {
      const p = mustExist(layout.positions.get(n.id), `The laid-out position of node ${n.id}`);
      n.x = p.x + dx;
      n.y = p.y + bottom;
    }
    for (const [id, points] of layout.bendpoints) {
      bendpoints.set(
        id,
        points.map((p) => ({ x: p.x + dx, y: p.y + bottom })),
      );
    }
  }
  await insertNodes(database, tx, ws, input.view_id, created);
  await insertConnections(database, tx, ws, input.view_id, drawn, bendpoints);
  if (input.layout === "layered") {
    await layoutWholeView(database, tx, ws, input.view_id);
    const placed = await database.rows<{ id: string; x: number; y: number }>(
      sql`select id, x, y from view_nodes where workspace_id = ${ws} and view_id = ${input.view_id}
            and id in (select json_array_elements_text(${JSON.stringify(created.map((n) => n.id))}::json))`,
      tx,
    );
    const at = new Map(placed.map((p) => [p.id, p]));
    for (const n of created) {
      const p = mustExist(at.get(n.id), `The placed node ${n.id}`);
      Object.assign(n, { x: p.x, y: p.y });
    }
  }
  return {
    view_id: input.view_id,
    added: created,
    already_shown: alreadyShown,
    connections: drawn,
    layout: input.layout,
  };
}

/**
 * Relationships between two shown elements, at least one of them among `touching`, that no connection of the view
 * draws yet (relationships on relationships are not drawn here).
 */
async function undrawnRelationships(
  database: Database,
  tx: DbOrTx,
  ws: string,
  viewId: string,
  touching: string[],
  shown: string[],
) {
  return database.rows<{ id: string; source_id: string; target_id: string }>(
    sql`with shown as (select json_array_elements_text(${JSON.stringify(shown)}::json) as id),
             touching as (select json_array_elements_text(${JSON.stringify(touching)}::json) as id)
        select r.id, r.source_id, r.target_id from relationships r
        where r.workspace_id = ${ws}
          and r.source_id in (select id from shown) and r.target_id in (select id from shown)
          and (r.source_id in (select id from touching) or r.target_id in (select id from touching))
          and not exists (select 1 from connections c where c.workspace_id = ${ws} and c.view_id = ${viewId}
            and c.relationship_id = r.id)
        order by r.ord`,
    tx,
  );
}

async function insertNodes(
  database: Database,
  tx: DbOrTx,
  ws: string,
  viewId: string,
  nodes: { id: string; element_id: string; x: number; y: number; w: number; h: number }[],
) {
  if (nodes.length === 0) return;
  await database.rows(
    sql`insert into view_nodes (workspace_id, id, view_id, parent_id, ord, kind, element_id, x, y, w, h)
        select ${ws}, n.id, ${viewId}, null,
          coalesce((select max(ord) + 1 from view_nodes where workspace_id = ${ws} and view_id = ${viewId}), 0) + n.o,
          'element', n.e, n.x, n.y, n.w, n.h
        from json_to_recordset(${JSON.stringify(nodes.map((n, o) => ({ ...n, e: n.element_id, o })))}::json)
          as n(id text, e text, x int, y int, w int, h int, o int)`,
    tx,
  );
}

async function insertConnections(
  database: Database,
  tx: DbOrTx,
  ws: string,
  viewId: string,
  connections: { id: string; relationship_id: string; source: string; target: string }[],
  bendpoints: Map<string, Point[]>,
) {
  if (connections.length === 0) return;
  const rows = connections.map((c, o) => {
    const points = bendpoints.get(c.id);
    return { i: c.id, r: c.relationship_id, s: c.source, t: c.target, b: points?.length ? points : null, o };
  });
  await database.rows(
    sql`insert into connections (workspace_id, id, view_id, ord, kind, relationship_id, source_id, target_id, bendpoints)
        select ${ws}, c.i, ${viewId},
          coalesce((select max(ord) + 1 from connections where workspace_id = ${ws} and view_id = ${viewId}), 0) + c.o,
          'relationship', c.r, c.s, c.t, c.b
        from json_to_recordset(${JSON.stringify(rows)}::json) as c(i text, r text, s text, t text, b jsonb, o int)`,
    tx,
  );
}
