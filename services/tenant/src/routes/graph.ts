import { ENABLE_GRAPH_HINT } from "@ams/graph-worker";
import { type GraphDeps, type GraphProvider, getRebuildJob, requestRebuild } from "@ams/model";
import { AppError } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import { jsonResponse, problemResponses, type TenantApp } from "./openapi.ts";

const tags = ["Graph"];

/**
 * The graph deps of a request, or 503: saying how to enable graph features when no Neo4j is configured, or why the
 * graph is not ready yet (a local Neo4j still starting, or one that failed to start).
 */
export function requireGraph(graph: GraphProvider): GraphDeps {
  if (!graph)
    throw new AppError("UNAVAILABLE", `Graph features are not enabled on this deployment. ${ENABLE_GRAPH_HINT}`);
  if ("driver" in graph) return graph;
  const ready = graph.get();
  if (!ready) throw new AppError("UNAVAILABLE", graph.unavailable());
  return ready;
}

export const GraphJob = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    state: z.enum(["queued", "running", "succeeded", "failed"]),
    attempts: z.number(),
    generation: z.number().nullable(),
    counts: z
      .object({
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
  })
  .openapi("GraphJob");

export function registerGraphRoutes(app: TenantApp, graph: GraphProvider) {
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/export/neo4j",
      tags,
      operationId: "rebuildGraph",
      description:
        "Rebuilds the graph read model of the active workspace (owner/editor). Waits for the job up to GRAPH_REBUILD_WAIT_MS: " +
        "200 with the counts when it finished, 202 with the job and its status route otherwise.",
      responses: {
        200: jsonResponse(GraphJob, "Rebuilt: the job with its counts"),
        202: jsonResponse(GraphJob, "Still running: poll status_url"),
        ...problemResponses,
        503: {
          description: "No graph database configured, the queue is down, or the rebuild failed (Neo4j unreachable)",
        },
      },
    }),
    async (c) => {
      const { status, job } = await requestRebuild({ ctx: c.var.ctx, input: undefined, graph: requireGraph(graph) });
      if (status === 202) c.header("location", job.status_url);
      return c.json(job, status);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/export/neo4j/jobs/{jobId}",
      tags,
      operationId: "getGraphJob",
      request: {
        params: z.object({
          jobId: z
            .string()
            .max(100)
            .openapi({ param: { name: "jobId", in: "path" } }),
        }),
      },
      responses: { 200: jsonResponse(GraphJob, "The rebuild job"), ...problemResponses },
    }),
    async (c) => c.json(await getRebuildJob({ ctx: c.var.ctx, input: c.req.valid("param") }), 200),
  );
}
