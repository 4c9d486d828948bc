import type { GraphDeps, GraphProvider } from "@ams/model";
import { AppError } from "@ams/shared";
import { ENABLE_GRAPH_HINT } from "./neo4j-config.ts";

/**
 * The graph deps of a request (REST route or MCP tool), or 503: saying how to enable graph features when no Neo4j
 * is configured, or why the graph is not ready yet (a local Neo4j still starting, or one that failed to start).
 */
export function requireGraph(graph: GraphProvider): GraphDeps {
  if (!graph)
    throw new AppError("UNAVAILABLE", `Graph features are not enabled on this deployment. ${ENABLE_GRAPH_HINT}`);
  if ("driver" in graph) return graph;
  const ready = graph.get();
  if (!ready) throw new AppError("UNAVAILABLE", graph.unavailable());
  return ready;
}
