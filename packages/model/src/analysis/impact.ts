import { type ElementType, invalid, LAYERS, layerOf, RELATIONSHIP_TYPES, resolveRelationshipType } from "@ams/shared";
import { sql } from "drizzle-orm";
import { requireCapability, requireWorkspace, type Verb } from "../context.ts";
import { getElementRow } from "../elements/internal.ts";
import { anyOf, idList } from "../sql.ts";
import { type Direction, flowOf, follows } from "./dependency.ts";
import {
  type AffectedElement,
  IMPACT_MAX_ELEMENTS,
  ImpactQuery,
  type ImpactResult,
  type PathStep,
} from "./impact-schemas.ts";

const RELATIONSHIP_NAMES = RELATIONSHIP_TYPES.map((t) => t.name).join(", ");

type Edge = {
  id: string;
  type: string;
  source: string;
  target: string;
  isDirected: boolean | null;
  fromSource: boolean;
  other: string;
  otherType: string;
  otherName: string;
};

/** The relationship types of `types=`, each resolved to its exchange name; null for all. */
export function parseRelationshipTypes(types: string | undefined, path = "types"): string[] | null {
  if (types === undefined || types.trim() === "") return null;
  const out = new Set<string>();
  for (const part of types.split(",")) {
    const name = part.trim();
    if (!name) continue;
    const type = resolveRelationshipType(name);
    if (!type) throw invalid(path, `'${name}' is not an ArchiMate 3.1 relationship type (${RELATIONSHIP_NAMES})`);
    out.add(type);
  }
  return [...out];
}

/**
 * The relationships at the frontier of the walk whose other end is an element, in model order: one statement per
 * step however wide the frontier, each side answered from the (workspace, source) and (workspace, target) indexes.
 */
export async function frontierEdges(
  ctx: Verb["ctx"],
  ws: string,
  frontier: readonly string[],
  types: readonly string[] | null,
): Promise<Edge[]> {
  const only = types ? sql`and r.type in ${idList(types)}` : sql``;
  const ids = anyOf(frontier);
  return ctx.database.rows<Edge>(
    sql`select * from (
          select r.ord, r.id, r.type, r.source_id as source, r.target_id as target, r.is_directed as "isDirected",
            true as "fromSource", e.id as other, e.type as "otherType", e.name as "otherName"
          from relationships r join elements e on e.workspace_id = r.workspace_id and e.id = r.target_id
          where r.workspace_id = ${ws} and r.source_id = ${ids} ${only}
          union all
          select r.ord, r.id, r.type, r.source_id, r.target_id, r.is_directed, false, e.id, e.type, e.name
          from relationships r join elements e on e.workspace_id = r.workspace_id and e.id = r.source_id
          where r.workspace_id = ${ws} and r.target_id = ${ids} ${only}
        ) edges order by ord, "fromSource" desc`,
  );
}

type Reached = { id: string; type: string; name: string; distance: number; via: PathStep | null; parent: string };

/**
 * What is affected when an element changes (its dependents), what it needs (its dependencies), or both: a
 * breadth-first walk over the model's relationships in the workspace's own tables, so the answer is as current as
 * the last committed change. Each element comes with its shortest path from the analysed one; the first path found
 * in model order wins a tie.
 */
export async function analyzeImpact({ ctx, input }: Verb<ImpactQuery & { id: string }>): Promise<ImpactResult> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const { id, ...rest } = input;
  const query = ImpactQuery.parse(rest);
  const types = parseRelationshipTypes(query.types);
  const start = await getElementRow(ctx.database, ws, id);
  const direction: Direction = query.direction;
  const reached = new Map<string, Reached>();
  let frontier = [start.id];
  let truncated = false;
  for (let distance = 1; distance <= query.depth && frontier.length > 0 && !truncated; distance++) {
    const next: string[] = [];
    for (const edge of await frontierEdges(ctx, ws, frontier, types)) {
      if (edge.other === start.id || reached.has(edge.other)) continue;
      if (!types && edge.type === "Association") continue;
      if (!follows(flowOf(edge.type, edge.isDirected), direction, edge.fromSource)) continue;
      if (reached.size >= IMPACT_MAX_ELEMENTS) {
        truncated = true;
        break;
      }
      const parent = edge.fromSource ? edge.source : edge.target;
      const step = { relationship_id: edge.id, type: edge.type, source: edge.source, target: edge.target };
      reached.set(edge.other, {
        id: edge.other,
        type: edge.otherType,
        name: edge.otherName,
        distance,
        via: step,
        parent,
      });
      next.push(edge.other);
    }
    frontier = next;
  }
  const affected = [...reached.values()].map((r) => toAffected(r, reached));
  return {
    element: { id: start.id, type: start.type, name: start.name, layer: layerOfType(start.type) },
    direction,
    depth: query.depth,
    types,
    count: affected.length,
    truncated,
    layers: groupByLayer(affected),
  };
}

function toAffected(r: Reached, reached: Map<string, Reached>): AffectedElement {
  const path: PathStep[] = [];
  for (let at: Reached | undefined = r; at?.via; at = reached.get(at.parent)) path.unshift(at.via);
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    distance: r.distance,
    path,
    path_types: path.map((s) => s.type),
  };
}

export const layerOfType = (type: string): string => {
  try {
    return layerOf(type as ElementType);
  } catch {
    return "Other";
  }
};

/** Layers in ArchiMate order; within one, nearest first, then by name. */
export function groupByLayer<T extends { type: string; name: string; distance?: number }>(items: T[]) {
  const byLayer = new Map<string, T[]>();
  for (const item of items) {
    const layer = layerOfType(item.type);
    const list = byLayer.get(layer) ?? [];
    list.push(item);
    byLayer.set(layer, list);
  }
  const order = [...LAYERS, "Other"];
  return [...byLayer.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([layer, elements]) => ({
      layer,
      elements: elements.sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0) || a.name.localeCompare(b.name)),
    }));
}
