import { z } from "zod";

const ms = (fallback: number) => z.coerce.number().int().min(0).default(fallback);

/** Graph settings shared by the worker and the graph routes; parsed once at start-up. */
export const GraphEnv = z.object({
  DATABASE_URL: z.string().url().optional(),
  NATS_URL: z.string().optional(),
  GRAPH_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("GRAPH_JOBS"),
  GRAPH_SUBJECT: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default("graph.rebuild"),
  GRAPH_ACK_WAIT_MS: ms(30_000),
  GRAPH_REBUILD_WAIT_MS: ms(10_000),
  GRAPH_RETIRE_GRACE_MS: ms(11_000),
  GRAPH_BATCH_SIZE: z.coerce.number().int().min(100).max(100_000).default(20_000),
  EXPLORE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  EXPLORE_ROW_CAP: z.coerce.number().int().min(1).max(100_000).default(1000),
  /**
   * Memory (MB of answers' JSON) for explore and panel answers kept per graph revision on each replica; 0 keeps none.
   */
  EXPLORE_CACHE_MB: z.coerce.number().min(0).max(16_384).default(32),
  NEO4J_DATABASE: z.string().optional(),
  /** How often a worker compares each graph's revision with its model's and wakes the sync of those behind. */
  GRAPH_SYNC_SWEEP_MS: z.coerce.number().int().min(100).default(5_000),
  /**
   * At start, the graphs never built of the workspaces changed within this many hours are built before anyone asks
   * (the demo model's among them); 0 builds none at start (each is then built on its first use).
   */
  GRAPH_BUILD_RECENT_HOURS: z.coerce.number().int().min(0).max(8_760).default(24),
  /** Change entries waiting beyond which the sync rebuilds a graph in full instead of applying them. */
  GRAPH_SYNC_REBUILD_ABOVE: z.coerce.number().int().min(1).default(20_000),
  /** First and longest wait between attempts to reach Neo4j and NATS (capped exponential backoff). */
  DEPENDENCY_RETRY_INITIAL_MS: z.coerce.number().int().min(10).default(500),
  DEPENDENCY_RETRY_MAX_MS: z.coerce.number().int().min(100).default(30_000),
});
export type GraphConfig = z.infer<typeof GraphEnv>;

export function parseGraphEnv(env: Record<string, string | undefined> = process.env): GraphConfig {
  const result = GraphEnv.safeParse(env);
  if (!result.success) {
    throw new Error(
      `Invalid graph configuration:\n${result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
  }
  return result.data;
}
