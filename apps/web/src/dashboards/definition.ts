import type { Dashboard } from "../api/types.ts";

export type Definition = Pick<Dashboard, "title" | "description" | "parameters" | "panels">;
export type Panel = Definition["panels"][number];
export type Parameter = Definition["parameters"][number];

/** The stored definition of a dashboard answer (the API flattens it beside id, revision and timestamps). */
export function definitionOf(d: Dashboard): Definition {
  return {
    title: d.title,
    ...(d.description ? { description: d.description } : {}),
    parameters: d.parameters,
    panels: d.panels,
  };
}

/** A new dashboard's starting point: one metric, one table and one graph panel on the grid. */
export const TEMPLATE: Definition = {
  title: "New dashboard",
  parameters: [],
  panels: [
    {
      panelInstanceId: "elements",
      title: "Elements",
      visualization: "core/metric",
      query: "MATCH (e:Element) RETURN count(e) AS elements",
      layout: { x: 0, y: 0, w: 3, h: 2 },
    },
    {
      panelInstanceId: "per-layer",
      title: "Elements per layer",
      visualization: "core/table",
      query: "MATCH (e:Element) RETURN e.layer AS layer, count(*) AS elements ORDER BY elements DESC",
      layout: { x: 3, y: 0, w: 9, h: 2 },
    },
    {
      panelInstanceId: "serving",
      title: "What serves what",
      visualization: "core/graph",
      query: "MATCH p = (:Element)-[:SERVING]->(:Element) RETURN p LIMIT 100",
      layout: { x: 0, y: 2, w: 12, h: 4 },
    },
  ],
};
