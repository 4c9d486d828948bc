import { z } from "zod";

const RuntimeEnv = z.object({
  /** Port of GET /metrics (Prometheus); unset: no metrics port. Never routed by the ingress. */
  METRICS_PORT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(65535).optional()),
  /** How long requests in flight may take to finish after SIGTERM. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
});

export type RuntimeSettings = z.infer<typeof RuntimeEnv>;

/** The process-level settings every service reads (metrics port, drain bound); throws naming a bad one. */
export function runtimeSettings(env: Record<string, string | undefined> = process.env): RuntimeSettings {
  const result = RuntimeEnv.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return result.data;
}
