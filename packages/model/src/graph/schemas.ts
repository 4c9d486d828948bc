import { z } from "zod";
import { DashboardDefinition } from "./dashboards/definition.ts";

/** What explore takes (POST /api/explore): one read-only Cypher query and the values of its $parameters. */
export const ExploreInput = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(20_000)
    .describe("One read-only Cypher query (MATCH, OPTIONAL MATCH, WITH, UNWIND, WHERE, RETURN, UNION)"),
  parameters: z.record(z.string(), z.unknown()).optional().describe("Values of the query's $parameters"),
});
export type ExploreInput = z.infer<typeof ExploreInput>;

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
  graph: z
    .object({
      revision: z.number().nullable().describe("The model revision (change group) the graph shows"),
      model_revision: z.number().describe("The model's latest revision"),
      behind: z.number().describe("Change groups the graph has still to apply (it catches up by itself)"),
    })
    .optional()
    .describe("How current the graph was when the query ran"),
});

/** A graph rebuild job as REST and MCP show it (GET /api/export/neo4j/jobs/:jobId, rebuild_graph). */
export const GraphJobSchema = z.object({
  id: z.string(),
  workspace_id: z.string(),
  state: z.enum(["queued", "running", "succeeded", "failed"]),
  attempts: z.number(),
  generation: z.number().nullable(),
  counts: z
    .looseObject({
      elements: z.number(),
      relationships: z.number(),
      views: z.number(),
      reified: z.number(),
      contains: z.number(),
    })
    .nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  status_url: z.string(),
});
export type RebuildJob = z.infer<typeof GraphJobSchema>;

/** What requestRebuild answers: the job, and 200 when it finished within the wait or 202 while it runs. */
export const RebuildAnswer = z.object({ status: z.union([z.literal(200), z.literal(202)]), job: GraphJobSchema });
export type RebuildAnswer = z.infer<typeof RebuildAnswer>;

/** A dashboard at one revision: its definition beside its id, revision and timestamps (REST's dashboard routes). */
export const Dashboard = DashboardDefinition.extend({
  dashboardId: z.string(),
  revision: z.number(),
  latestRevision: z.number(),
  isProvisioned: z.boolean(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  deleted: z.boolean().optional().describe("Admin list only"),
  deleted_at: z.string().nullable().optional().describe("Admin list only"),
});
export type Dashboard = z.infer<typeof Dashboard>;

/** One panel run with the dashboard's parameter values (GET /api/dashboards/:id/panels/:panelInstanceId). */
export const PanelRun = z.object({
  dashboardId: z.string(),
  revision: z.number(),
  panelInstanceId: z.string(),
  title: z.string(),
  visualization: z.string(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  value: z.unknown().optional().describe("core/metric panels: the first cell"),
  result: QueryResultSchema,
});
export type PanelRun = z.infer<typeof PanelRun>;

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
