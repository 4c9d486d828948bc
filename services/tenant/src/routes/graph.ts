import { requireGraph } from "@ams/graph";
import { GraphJobSchema, type GraphProvider, getRebuildJob, requestRebuild } from "@ams/model";
import { answer, registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { TenantApp } from "./openapi.ts";

const tags = ["Graph"];

/** Shared with the MCP tools: one wording of "graph not enabled / not ready". */
export { requireGraph };

export function registerGraphRoutes(app: TenantApp, graph: GraphProvider) {
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/export/neo4j",
      tags,
      operationId: "rebuildGraph",
      description:
        "Rebuilds the graph read model of the active workspace (owner/editor). Waits for the job up to GRAPH_REBUILD_WAIT_MS: " +
        "200 with the counts when it finished, 202 with the job and its status route otherwise.",
      output: {
        schema: GraphJobSchema,
        description: "Rebuilt: the job with its counts",
        also: { 202: "Still running: poll status_url (also in Location)" },
      },
      problems: {
        503: "No graph database configured, the queue is down, or the rebuild failed (Neo4j unreachable)",
      },
    },
    async (c) => {
      const { status, job } = await requestRebuild({ ctx: c.var.ctx, input: undefined, graph: requireGraph(graph) });
      return status === 202 ? answer(202, job, { location: job.status_url }) : job;
    },
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/export/neo4j/jobs/{jobId}",
      tags,
      operationId: "getGraphJob",
      params: z.object({
        jobId: z
          .string()
          .max(100)
          .openapi({ param: { name: "jobId", in: "path" } }),
      }),
      output: { schema: GraphJobSchema, description: "The rebuild job" },
    },
    (c, { params }) => getRebuildJob({ ctx: c.var.ctx, input: params }),
  );
}
