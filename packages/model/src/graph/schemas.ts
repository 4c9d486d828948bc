import { z } from "zod";

/** Outputs of the graph verbs, for every surface that describes its answers (MCP outputSchema, OpenAPI). */
export const QueryResultSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  nodes: z.array(
    z.object({ id: z.string(), labels: z.array(z.string()), properties: z.record(z.string(), z.unknown()) }),
  ),
  relationships: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      start: z.string(),
      end: z.string(),
      properties: z.record(z.string(), z.unknown()),
    }),
  ),
  truncated: z.boolean().describe("More rows existed than rowCap"),
  rowCap: z.number(),
});

export const GraphJobSchema = z.object({
  id: z.string(),
  workspace_id: z.string(),
  state: z.string().describe("queued, running, succeeded or failed"),
  attempts: z.number(),
  generation: z.number().nullable(),
  counts: z.unknown(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  status_url: z.string(),
});

export const DashboardSummary = z.object({
  dashboardId: z.string(),
  title: z.string(),
  description: z.string().optional(),
  parameters: z.array(z.looseObject({ name: z.string(), type: z.string() })),
  panels: z.array(z.looseObject({ panelInstanceId: z.string(), title: z.string(), visualization: z.string() })),
});
export const DashboardList = z.object({ dashboards: z.array(DashboardSummary) });

export const DashboardRunInput = z.strictObject({
  dashboard_id: z.string().min(1).max(200).describe("Id of a dashboard (from list_dashboards)"),
  parameters: z
    .record(z.string().max(200), z.union([z.string().max(10_000), z.number(), z.boolean()]))
    .optional()
    .describe("Values of the dashboard's parameters, by name (list_dashboards names them)"),
  panel_id: z.string().min(1).max(64).optional().describe("Only this panel (default: every panel)"),
});
export type DashboardRunInput = z.infer<typeof DashboardRunInput>;

export const DashboardRun = z.object({
  dashboardId: z.string(),
  revision: z.number(),
  title: z.string(),
  panels: z.array(
    z.looseObject({
      panelInstanceId: z.string(),
      title: z.string(),
      visualization: z.string(),
      result: QueryResultSchema,
    }),
  ),
});
