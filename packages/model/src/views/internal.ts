import type { Bendpoint, ConnectionStyle, Database, DbOrTx, NodeStyle } from "@ams/db";
import { findViewpoint, invalid, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { expectRevision } from "../history/expect.ts";
import { readProperties } from "../properties/values.ts";
import type { Properties } from "../schemas.ts";

export type ViewRow = {
  id: string;
  name: string;
  viewpoint: string | null;
  documentation: string | null;
  revision: number | string;
};
/** The columns of a ViewRow. */
export const viewColumns = sql`id, name, viewpoint, documentation, revision`;
export type NodeRow = {
  id: string;
  parentId: string | null;
  kind: string;
  elementId: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
  label: string | null;
  style: NodeStyle | null;
  revision: number | string;
};
export type ConnectionRow = {
  id: string;
  kind: string;
  relationshipId: string | null;
  sourceId: string;
  targetId: string;
  bendpoints: Bendpoint[] | null;
  label: string | null;
  style: ConnectionStyle | null;
  revision: number | string;
};

export type ViewNode = {
  id: string;
  kind: string;
  element_id: string | null;
  label?: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
  style?: NodeStyle;
  revision: number;
  children: ViewNode[];
};

export const nodeColumns = sql`id, parent_id as "parentId", kind, element_id as "elementId", x, y, w, h, label, style,
  revision`;
export const connectionColumns = sql`id, kind, relationship_id as "relationshipId", source_id as "sourceId",
  target_id as "targetId", bendpoints, label, style, revision`;

export const toView = (row: ViewRow, properties: Properties = {}) => ({
  id: row.id,
  name: row.name,
  viewpoint: row.viewpoint,
  documentation: row.documentation,
  properties,
  revision: Number(row.revision),
});

export function toNode(row: NodeRow, children: ViewNode[] = []): ViewNode {
  const node: ViewNode = {
    id: row.id,
    kind: row.kind,
    element_id: row.elementId,
    x: row.x,
    y: row.y,
    w: row.w,
    h: row.h,
    revision: Number(row.revision),
    children,
  };
  if (row.kind !== "element") node.label = row.label;
  if (row.style) node.style = row.style;
  return node;
}

export function toConnection(row: ConnectionRow) {
  return {
    id: row.id,
    kind: row.kind,
    relationship_id: row.relationshipId,
    source: row.sourceId,
    target: row.targetId,
    bendpoints: row.bendpoints ?? [],
    ...(row.label !== null ? { label: row.label } : {}),
    ...(row.style ? { style: row.style } : {}),
    revision: Number(row.revision),
  };
}

/** Builds the node tree in source order from flat rows. */
export function nodeTree(rows: NodeRow[]): ViewNode[] {
  const built = rows.map((r) => [r, toNode(r)] as const);
  const byId = new Map<string, ViewNode>(built.map(([r, node]) => [r.id, node]));
  const roots: ViewNode[] = [];
  for (const [r, node] of built) {
    const parent = r.parentId ? byId.get(r.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** expectRevision for a view (its name, viewpoint, documentation, properties): refused with the view as it is now. */
export function expectView(database: Database, tx: DbOrTx, ws: string, id: string, expected: number | undefined) {
  return expectRevision(database, tx, { table: "views", workspaceId: ws, id, what: "View" }, expected, async () =>
    toView(await getViewRow(database, ws, id, tx), (await readProperties(database, ws, "view", id, tx)).get(id)),
  );
}

/** expectRevision for a node of a view: refused with the node as it is now (without its children). */
export function expectNode(
  database: Database,
  tx: DbOrTx,
  ws: string,
  viewId: string,
  id: string,
  expected: number | undefined,
) {
  return expectRevision(database, tx, { table: "view_nodes", workspaceId: ws, id, what: "Node" }, expected, async () =>
    toNode(await getNodeRow(database, ws, viewId, id, tx)),
  );
}

/** expectRevision for a connection of a view: refused with the connection as it is now. */
export function expectConnection(
  database: Database,
  tx: DbOrTx,
  ws: string,
  viewId: string,
  id: string,
  expected: number | undefined,
) {
  const target = { table: "connections", workspaceId: ws, id, what: "Connection" } as const;
  return expectRevision(database, tx, target, expected, async () => {
    const [row] = await database.rows<ConnectionRow>(
      sql`select ${connectionColumns} from connections where workspace_id = ${ws} and view_id = ${viewId} and id = ${id}`,
      tx,
    );
    if (!row) throw notFound("Connection", id);
    return toConnection(row);
  });
}

export async function getViewRow(database: Database, ws: string, id: string, on?: DbOrTx) {
  const [row] = await database.rows<ViewRow>(
    sql`select ${viewColumns} from views where workspace_id = ${ws} and id = ${id}`,
    on,
  );
  if (!row) throw notFound("View", id);
  return row;
}

export async function getNodeRow(database: Database, ws: string, viewId: string, id: string, on?: DbOrTx) {
  const [row] = await database.rows<NodeRow>(
    sql`select ${nodeColumns} from view_nodes where workspace_id = ${ws} and view_id = ${viewId} and id = ${id}`,
    on,
  );
  if (!row) throw notFound("Node", id);
  return row;
}

/** The canonical viewpoint name, or a 422 listing where to find the valid ones. */
export function parseViewpoint(input: string | null | undefined): string | null | undefined {
  if (input === undefined || input === null || input === "") return input === "" ? null : input;
  const vp = findViewpoint(input);
  if (!vp) throw invalid("viewpoint", `'${input}' is not an ArchiMate 3.1 viewpoint`, "viewpoints");
  return vp.id;
}
