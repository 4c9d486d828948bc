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
