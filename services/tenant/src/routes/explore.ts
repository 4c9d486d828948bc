import { ExploreInput, explore, type GraphProvider, QueryResultSchema } from "@ams/model";
import { registerRoute } from "@ams/shared/http";
import { requireGraph } from "./graph.ts";
import type { TenantApp } from "./openapi.ts";

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
      output: { schema: QueryResultSchema, description: "Columns and rows, plus the nodes and relationships in them" },
    },
    (c, { body }) => explore({ ctx: c.var.ctx, input: body, graph: requireGraph(graph) }),
  );
}
