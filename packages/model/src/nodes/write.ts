import type { DbOrTx } from "@ams/db";
import { first, invalid, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { deleteDanglingConnections } from "../cascade.ts";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { assertIdentifierFree, getElementRow } from "../elements/internal.ts";
import { withChange, withChangeResult } from "../history/change.ts";
import type { ExpectedRevision } from "../history/expect.ts";
import type { ChangeResult } from "../history/schemas.ts";
import { newId } from "../ids.ts";
import { expectNode, getNodeRow, getViewRow, type NodeRow, nodeColumns, toNode } from "../views/internal.ts";
import type { ViewNode } from "../views/outputs.ts";
import type { CreateNodeInput, UpdateNodeInput } from "../views/schemas.ts";
import { type Box, placeNode } from "./placement.ts";

export async function createNode({
  ctx,
  input,
}: Verb<CreateNodeInput & { view_id: string }>): Promise<z.infer<typeof ViewNode>> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const kind = input.kind ?? (input.element_id ? "element" : undefined);
  if (!kind) throw invalid("element_id", "give element_id, or kind label/container with a label");
  if (kind === "element" && !input.element_id) throw invalid("element_id", "an element node needs element_id");
  if (kind !== "element" && input.element_id) throw invalid("element_id", `a ${kind} node shows no element`);
  const { database } = ctx;
  return withChange(ctx, { summary: "Added a node" }, async (tx, change) => {
    const view = await getViewRow(database, ws, input.view_id, tx);
    change.summary = `Added a ${kind} to view '${view.name}'`;
    if (input.element_id) {
      const element = await getElementRow(database, ws, input.element_id, tx).catch(() => {
        throw invalid("element_id", `no element '${input.element_id}' in this workspace`);
      });
      change.summary = `Added element '${element.name || element.type}' to view '${view.name}'`;
    }
    if (input.parent_id) {
      await getNodeRow(database, ws, input.view_id, input.parent_id, tx).catch(() => {
        throw invalid("parent_id", `no node '${input.parent_id}' in this view`);
      });
    }
    const id = input.id ?? newId();
    if (input.id) await assertIdentifierFree(database, tx, ws, id);
    const w = input.w ?? 120;
    const h = input.h ?? 55;
    let x = input.x;
    let y = input.y;
    if (x === undefined || y === undefined) {
      // No position given: free space, inside the parent when nested (growing the parent when it is full).
      const nodes = await database.rows<Box & { id: string; parent_id: string | null }>(
        sql`select id, parent_id, x, y, w, h from view_nodes where workspace_id = ${ws} and view_id = ${input.view_id}`,
        tx,
      );
      const parent = input.parent_id ? nodes.find((n) => n.id === input.parent_id) : undefined;
      // Siblings only: nested nodes lie inside their own parents, and the parent's ancestors contain every cell.
      const siblings = nodes.filter((n) => n.parent_id === (parent?.id ?? null));
      const place = placeNode({ w, h }, siblings, parent);
      x ??= place.x;
      y ??= place.y;
      if (parent && place.grow) {
        await database.rows(
          sql`update view_nodes set w = ${place.grow.w}, h = ${place.grow.h}
              where workspace_id = ${ws} and view_id = ${input.view_id} and id = ${parent.id}`,
          tx,
        );
      }
    }
    const rows = await database.rows<NodeRow>(
      sql`insert into view_nodes (workspace_id, id, view_id, parent_id, ord, kind, element_id, x, y, w, h, label, style)
          values (${ws}, ${id}, ${input.view_id}, ${input.parent_id ?? null},
            coalesce((select max(ord) + 1 from view_nodes where workspace_id = ${ws} and view_id = ${input.view_id}), 0),
            ${kind}, ${input.element_id ?? null}, ${x}, ${y}, ${w}, ${h},
            ${input.label ?? null}, ${input.style ? JSON.stringify(input.style) : null}::jsonb)
          returning ${nodeColumns}`,
      tx,
    );
    return toNode(first(rows, "The inserted node"));
  });
}

export async function updateNode({
  ctx,
  input,
}: Verb<UpdateNodeInput & { view_id: string; id: string } & ExpectedRevision>): Promise<z.infer<typeof ViewNode>> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChange(ctx, { summary: `Changed node '${input.id}'` }, async (tx, change) => {
    await expectNode(database, tx, ws, input.view_id, input.id, input.expected_revision);
    const cur = await getNodeRow(database, ws, input.view_id, input.id, tx);
    change.summary = nodeChangeSummary(cur, input, await shownName(database, tx, ws, cur));
    if (input.parent_id) await assertNotOwnAncestor(database, tx, ws, input.view_id, input.id, input.parent_id);
    const style = input.style === undefined ? cur.style : input.style;
    const [row] = await database.rows<NodeRow>(
      sql`update view_nodes set x = ${input.x ?? cur.x}, y = ${input.y ?? cur.y}, w = ${input.w ?? cur.w}, h = ${input.h ?? cur.h},
            label = ${input.label === undefined ? cur.label : input.label},
            parent_id = ${input.parent_id === undefined ? cur.parentId : input.parent_id},
            style = ${style ? JSON.stringify(style) : null}::jsonb,
            i18n = ${input.label !== undefined ? sql`nullif(coalesce(i18n, '{}'::jsonb) - 'label', '{}'::jsonb)` : sql`i18n`}
          where workspace_id = ${ws} and view_id = ${input.view_id} and id = ${input.id}
          returning ${nodeColumns}`,
      tx,
    );
    if (!row) throw notFound("Node", input.id);
    return toNode(row);
  });
}

/** A node cannot be moved into itself or one of its descendants. */
async function assertNotOwnAncestor(
  database: RequestContext["database"],
  tx: Parameters<typeof getNodeRow>[4],
  ws: string,
  viewId: string,
  id: string,
  parentId: string,
) {
  await getNodeRow(database, ws, viewId, parentId, tx).catch(() => {
    throw invalid("parent_id", `no node '${parentId}' in this view`);
  });
  const [cycle] = await database.rows(
    sql`with recursive up(id, parent_id) as (
          select id, parent_id from view_nodes where workspace_id = ${ws} and id = ${parentId}
          union select n.id, n.parent_id from view_nodes n join up on n.id = up.parent_id where n.workspace_id = ${ws}
        ) select 1 from up where id = ${id} limit 1`,
    tx,
  );
  if (cycle) throw invalid("parent_id", "a node cannot be nested inside itself or its own children");
}

/** Deletes the node, its nested nodes (cascade) and every connection attached to them. */
export async function deleteNode({
  ctx,
  input,
}: Verb<{ view_id: string; id: string } & ExpectedRevision>): Promise<ChangeResult> {
  requireCapability(ctx, "model:write");
  const ws = requireWorkspace(ctx);
  const { database } = ctx;
  return withChangeResult(ctx, { summary: `Removed node '${input.id}'` }, async (tx, change) => {
    const view = await getViewRow(database, ws, input.view_id, tx);
    await expectNode(database, tx, ws, input.view_id, input.id, input.expected_revision);
    change.summary = `Removed node '${input.id}' from view '${view.name}'`;
    const [gone] = await database.rows(
      sql`delete from view_nodes where workspace_id = ${ws} and view_id = ${input.view_id} and id = ${input.id} returning id`,
      tx,
    );
    if (!gone) throw notFound("Node", input.id);
    await deleteDanglingConnections(database, tx, ws, [input.view_id]);
  });
}

/** What a node shows, as its history names it: its element's name (or type), else its label. */
async function shownName(database: RequestContext["database"], tx: DbOrTx, ws: string, node: NodeRow) {
  if (!node.elementId) return node.label || node.kind;
  const [row] = await database.rows<{ name: string }>(
    sql`select coalesce(nullif(name, ''), type) as name from elements where workspace_id = ${ws} and id = ${node.elementId}`,
    tx,
  );
  return row?.name ?? node.elementId;
}

/** "Moved", "Resized", "Moved and resized" or "Changed" node, by what the update changes. */
function nodeChangeSummary(cur: NodeRow, input: UpdateNodeInput, name: string): string {
  const moved = (input.x !== undefined && input.x !== cur.x) || (input.y !== undefined && input.y !== cur.y);
  const resized = (input.w !== undefined && input.w !== cur.w) || (input.h !== undefined && input.h !== cur.h);
  const what = moved && resized ? "Moved and resized" : moved ? "Moved" : resized ? "Resized" : "Changed";
  return `${what} node '${name}'`;
}
