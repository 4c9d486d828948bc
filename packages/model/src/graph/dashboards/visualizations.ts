import { z } from "zod";

/** GET /api/panel-visualizations: the static catalogue of panel visualizations. */
export const PANEL_VISUALIZATIONS = [
  {
    id: "core/graph",
    name: "Graph",
    description: "Draws the nodes, relationships and paths the query returns as a network.",
    expects: "Columns holding nodes, relationships or paths (rows of other values are ignored).",
  },
  {
    id: "core/table",
    name: "Table",
    description: "Shows the rows of the query with its columns as headers.",
    expects: "Any columns; nodes and relationships are shown by name and type.",
  },
  {
    id: "core/metric",
    name: "Metric",
    description: "Shows one big value: the first column of the first row.",
    expects: "One row with one number or short text.",
  },
] as const;

export const PanelVisualizationInfo = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  expects: z.string(),
});

/** GET /api/dashboards/schema answers a JSON Schema document (draft 2020-12). */
export const JsonSchemaDocument = z.looseObject({ $id: z.string() }).describe("A JSON Schema (draft 2020-12)");
