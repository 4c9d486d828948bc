import { requireGraph } from "@ams/graph";
import {
  awaitRebuild,
  DashboardListItem,
  DashboardRun,
  DashboardRunInput,
  explore,
  GraphJobSchema,
  pageDashboards,
  QueryResultSchema,
  type RebuildJob,
  requestRebuild,
  requireCapability,
  runDashboard,
} from "@ams/model";
import { z } from "zod";
import { data, defineTool, READ, SWITCH } from "./define.ts";
import { counts, described, pageArguments, pagingNote } from "./fields.ts";

const DASHBOARDS_LIMIT = { default: 50, max: 500 } as const;

const DASHBOARD_SUMMARY = ["title", "description", "isProvisioned", "panelCount", "revision", "updated_at"] as const;
const DASHBOARD_FIELDS = [...DASHBOARD_SUMMARY, "parameters", "panels"] as const;
type DashboardField = (typeof DASHBOARD_FIELDS)[number];

const DashboardListArguments = z.strictObject({
  ...pageArguments("dashboards", DASHBOARDS_LIMIT),
  fields: z
    .array(z.enum(DASHBOARD_FIELDS))
    .min(1)
    .optional()
    .describe(
      `Only these fields in each dashboard (dashboardId always): ${DASHBOARD_FIELDS.join(", ")}; default the ` +
        `summary (${DASHBOARD_SUMMARY.join(", ")}). Ask for parameters to know what run_dashboard takes, for ` +
        "panels to read their Cypher queries (a dashboard's panels can be a megabyte: page with a small limit)",
    ),
});

const DashboardPage = z.object({
  dashboards: z.array(DashboardListItem.partial().extend({ dashboardId: z.string() })),
  total: z.number().int().describe("How many dashboards there are"),
  omitted: z.number().int().describe("How many are not in this answer (see limit/offset)"),
});

/** The asked fields of a dashboard (dashboardId always); description_truncated goes with its description. */
function pickFields(item: DashboardListItem, fields: readonly DashboardField[]): Partial<DashboardListItem> {
  const out: Record<string, unknown> = { dashboardId: item.dashboardId };
  for (const field of fields) {
    if (item[field] !== undefined) out[field] = item[field];
    if (field === "description" && item.description_truncated) out.description_truncated = true;
  }
  return out;
}

/**
 * A rebuild job as MCP callers follow it: REST's status_url is a route they cannot call, so the answer says which
 * call follows the job instead.
 */
const McpGraphJob = GraphJobSchema.omit({ status_url: true }).extend({
  next: z
    .string()
    .nullable()
    .describe("How to follow a job still queued or running (the call to make); null once it has finished"),
});

function mcpJob({ status_url: _, ...job }: RebuildJob): z.infer<typeof McpGraphJob> {
  const pending = job.state === "queued" || job.state === "running";
  return {
    ...job,
    next: pending ? `rebuild_graph {"job_id": "${job.id}"} waits for this job again; it starts no other rebuild` : null,
  };
}

export const graphTools = [
  defineTool({
    name: "explore",
    title: "Query the model graph (read-only Cypher)",
    description:
      "Runs one read-only Cypher query over the workspace's graph (elements as nodes labelled by type, relationships " +
      "as edges), confined to this workspace as REST's /api/explore is: writes, CALL, LOAD CSV and schema commands " +
      "are refused. Rows are capped (truncated says so). Needs a built graph: rebuild_graph after model changes.",
    input: z.strictObject({
      query: z
        .string()
        .min(1)
        .max(20_000)
        .describe(
          "One read-only Cypher query, e.g. MATCH (a:ApplicationComponent)-[:SERVING]->(b) RETURN a.name, b.name " +
            "(element types are labels, relationship types upper case)",
        ),
      parameters: z.record(z.string(), z.unknown()).optional().describe("Values of the query's $parameters"),
    }),
    output: QueryResultSchema,
    annotations: READ,
    run: async ({ ctx, graph }, input) => data(await explore({ ctx, input, graph: requireGraph(graph) })),
  }),
  defineTool({
    name: "rebuild_graph",
    title: "Rebuild the model graph",
    description:
      "Copies the workspace's current model into the graph that explore and dashboards read, and waits for it. A job " +
      "still queued or running after the wait is returned with that state: call rebuild_graph again with its job_id " +
      "to wait for that same job (no second rebuild starts).",
    input: z.strictObject({
      job_id: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe("Id of a rebuild still running (from an earlier answer): wait for it instead of starting another"),
    }),
    output: McpGraphJob,
    annotations: SWITCH,
    run: async ({ ctx, graph }, { job_id }) => {
      // The role first: a viewer hears "not allowed", not whether this deployment has a graph.
      requireCapability(ctx, "graph:rebuild");
      const deps = requireGraph(graph);
      const answer =
        job_id === undefined
          ? await requestRebuild({ ctx, input: undefined, graph: deps })
          : await awaitRebuild({ ctx, input: { jobId: job_id }, graph: deps });
      return data(mcpJob(answer.job));
    },
  }),
  defineTool({
    name: "list_dashboards",
    title: "List dashboards",
    description:
      "The dashboards of your organization (and the provisioned ones), provisioned first then by title: a summary " +
      "of each (id, title, description, provisioned or not, panel count, latest revision, last change). " +
      "`fields` adds parameters (what run_dashboard takes) or panels (their Cypher queries). " +
      `${pagingNote("dashboards", DASHBOARDS_LIMIT)} A description is cut at 1,000 characters.`,
    input: DashboardListArguments,
    output: DashboardPage,
    annotations: READ,
    run: async ({ ctx }, { limit, offset, fields = DASHBOARD_SUMMARY }) => {
      const include = fields.filter((f) => f === "parameters" || f === "panels");
      const page = await pageDashboards({ ctx, input: { limit, offset, include } });
      return data({ dashboards: page.items.map((d) => pickFields(d, fields)), ...counts(page) });
    },
  }),
  defineTool({
    name: "run_dashboard",
    title: "Run a dashboard",
    description:
      "Runs the panels of a dashboard (or one panel) over the workspace's graph with the given parameter values, " +
      "checked and scoped exactly as the dashboard page's queries are; each panel answers its query result.",
    input: described(DashboardRunInput, {
      parameters:
        'Values of the dashboard\'s parameters, by name (list_dashboards with fields ["parameters"] names them; ' +
        "a required one left out is named in the error)",
    }),
    output: DashboardRun,
    annotations: READ,
    run: async ({ ctx, graph }, { dashboard_id, parameters, panel_id }) =>
      data(
        await runDashboard({
          ctx,
          graph: requireGraph(graph),
          input: { dashboardId: dashboard_id, parameters: parameters ?? {}, panelId: panel_id },
        }),
      ),
  }),
];
