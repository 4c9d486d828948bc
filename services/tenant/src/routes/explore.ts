import { explore, type GraphProvider } from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { requireGraph } from "./graph.ts";
import type { TenantApp } from "./openapi.ts";

export const ExploreInput = z
  .object({
    query: z
      .string()
      .min(1)
      .max(20_000)
      .describe("One read-only Cypher query (MATCH, OPTIONAL MATCH, WITH, UNWIND, WHERE, RETURN, UNION)"),
    parameters: z.record(z.string(), z.unknown()).optional().describe("Values of the query's $parameters"),
  })
  .strict()
  .openapi("ExploreInput");

export const QueryResult = z
  .object({
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
  })
  .openapi("QueryResult");

export function registerExploreRoutes(app: TenantApp, graph: GraphProvider) {
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/explore",
      tags: ["Graph"],
      operationId: "explore",
      description:
        "Runs one read-only Cypher query over the active workspace's graph. The query is parsed and rewritten so every node " +
        "pattern is confined to the workspace; writes, CALL, LOAD CSV, USE, SHOW and schema commands are refused with 422.",
      body: ExploreInput,
      output: { schema: QueryResult, description: "Columns and rows, plus the nodes and relationships in them" },
    },
    (c, { body }) => explore({ ctx: c.var.ctx, input: body, graph: requireGraph(graph) }),
  );
}
