import { AppError, invalid } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { RequestContext } from "../context.ts";
import { heatScale, PALETTES, type Palette } from "../render/heat-scale.ts";
import type { Heat } from "../render/types.ts";
import { flowOf, follows } from "./dependency.ts";
import { frontierEdges } from "./impact.ts";

/** Metrics a view can be coloured by; any other name is a property's. */
export const HEAT_METRICS = {
  relationship_count: "Relationships",
  impact_count: "Impact (dependents within 3 relationships)",
} as const;
export type ColorBy = { kind: "metric"; name: keyof typeof HEAT_METRICS } | { kind: "property"; name: string };

export function parsePalette(palette: string | undefined): Palette | undefined {
  if (palette === undefined || palette === "") return undefined;
  const p = palette.toLowerCase();
  if ((PALETTES as readonly string[]).includes(p)) return p as Palette;
  throw invalid("palette", `'${palette}' is not a palette of this service; use ${PALETTES.join(", ")}`);
}

/**
 * The fill of each element node of a view for one property or metric, and the legend that explains it. The view's
 * stored colours are not read or changed: the heat is an option of this one drawing.
 */
export async function computeHeat(
  ctx: RequestContext,
  ws: string,
  viewId: string,
  colorBy: string,
  palette: Palette | undefined,
): Promise<Heat> {
  const metric = colorBy in HEAT_METRICS ? (colorBy as keyof typeof HEAT_METRICS) : null;
  let nodes: { id: string; element: string; value?: string | null }[];
  let values: Map<string, string | number>;
  let title: string;
  if (metric) {
    nodes = await ctx.database.rows<{ id: string; element: string }>(
      sql`select id, element_id as element from view_nodes
          where workspace_id = ${ws} and view_id = ${viewId} and element_id is not null`,
    );
    const elements = [...new Set(nodes.map((n) => n.element))];
    title = HEAT_METRICS[metric];
    values =
      metric === "relationship_count"
        ? await relationshipCounts(ctx, ws, elements)
        : await impactCounts(ctx, ws, elements);
  } else {
    // One statement: the definition by name and each element node's first value of it (a lookup per node).
    const rows = await ctx.database.rows<{ id: string; element: string; title: string; value: string | null }>(
      sql`select n.id, n.element_id as element, d.name as title, pv.value from view_nodes n
          join (select id, name from property_definitions where workspace_id = ${ws} and lower(name) = lower(${colorBy})
            order by ord limit 1) d on true
          left join lateral (select value from property_values v where v.workspace_id = n.workspace_id
            and v.owner_kind = 'element' and v.owner_id = n.element_id and v.definition_id = d.id
            order by v.ord limit 1) pv on true
          where n.workspace_id = ${ws} and n.view_id = ${viewId} and n.element_id is not null`,
    );
    const [definition] =
      rows.length > 0
        ? [{ name: rows[0]?.title ?? colorBy }]
        : await ctx.database.rows<{ name: string }>(
            sql`select name from property_definitions where workspace_id = ${ws} and lower(name) = lower(${colorBy})
                order by ord limit 1`,
          );
    if (!definition) {
      throw new AppError(
        "VALIDATION",
        `color_by: no property '${colorBy}' in this workspace and no metric of that name (metrics: ${Object.keys(HEAT_METRICS).join(", ")})`,
        { errors: [{ path: "color_by", message: `unknown property '${colorBy}'` }], see: "propertyDefinitions" },
      );
    }
    title = definition.name;
    nodes = rows;
    values = new Map(rows.filter((r) => r.value !== null).map((r) => [r.element, r.value as string]));
  }
  const scale = heatScale([...values.values()], palette ?? (metric ? "heat" : undefined));
  const fills = new Map<string, string>();
  for (const n of nodes) fills.set(n.id, scale.color(values.get(n.element)));
  return { fills, legend: { title, entries: scale.entries } };
}

async function relationshipCounts(ctx: RequestContext, ws: string, elements: string[]) {
  const rows = await ctx.database.rows<{ id: string; n: number | string }>(
    sql`select e.id, (select count(*) from relationships r where r.workspace_id = ${ws} and r.source_id = e.id)
          + (select count(*) from relationships r where r.workspace_id = ${ws} and r.target_id = e.id) as n
        from json_array_elements_text(${JSON.stringify(elements)}::json) as e(id)`,
  );
  return new Map<string, string | number>(rows.map((r) => [r.id, Number(r.n)]));
}

/**
 * How many elements depend on each one within three relationships (impact analysis' dependents), for all the view's
 * elements at once: one statement per step for the union of their frontiers, each origin's walk kept apart in memory.
 */
async function impactCounts(ctx: RequestContext, ws: string, elements: string[]) {
  const seen = new Map<string, Set<string>>(elements.map((e) => [e, new Set([e])]));
  let frontier = new Map<string, Set<string>>(elements.map((e) => [e, new Set([e])]));
  for (let step = 0; step < 3 && frontier.size > 0; step++) {
    const all = new Set<string>();
    for (const set of frontier.values()) for (const id of set) all.add(id);
    const edges = await frontierEdges(ctx, ws, [...all], null);
    const next = new Map<string, Set<string>>();
    const reachedFrom = new Map<string, string[]>();
    for (const e of edges) {
      if (e.type === "Association" || !follows(flowOf(e.type, e.isDirected), "dependents", e.fromSource)) continue;
      const from = e.fromSource ? e.source : e.target;
      const list = reachedFrom.get(from) ?? [];
      list.push(e.other);
      reachedFrom.set(from, list);
    }
    for (const [origin, ids] of frontier) {
      const mine = seen.get(origin) as Set<string>;
      for (const id of ids) {
        for (const other of reachedFrom.get(id) ?? []) {
          if (mine.has(other)) continue;
          mine.add(other);
          const set = next.get(origin) ?? new Set<string>();
          set.add(other);
          next.set(origin, set);
        }
      }
    }
    frontier = next;
  }
  return new Map<string, string | number>(elements.map((e) => [e, (seen.get(e)?.size ?? 1) - 1]));
}
