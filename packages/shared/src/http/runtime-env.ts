import { z } from "zod";

const RuntimeEnv = z.object({
  /** Port of GET /metrics (Prometheus); unset: no metrics port. Never routed by the ingress. */
  METRICS_PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  /** How long requests in flight may take to finish after SIGTERM. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
  /** How long closing (queues, drivers, pools) may take after the drain bound; then the process exits by itself. */
  SHUTDOWN_CLOSE_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
  /** Connections of the process's PostgreSQL pool. */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
});

export type RuntimeSettings = z.infer<typeof RuntimeEnv>;

/** The process-level settings every service reads (metrics port, stop bounds, pool size); throws naming a bad one. */
export function runtimeSettings(env: Record<string, string | undefined> = process.env): RuntimeSettings {
  const result = RuntimeEnv.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return result.data;
}
