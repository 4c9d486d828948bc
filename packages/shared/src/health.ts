/** A dependency as /api/health reports it. */
export type HealthState = "up" | "down" | "not configured";

/**
 * A dependency probe: resolves when the dependency answers, rejects when it does not, and may resolve to the string
 * "not configured" when it learns only at call time that there is none (a remote service's own report).
 */
export type HealthProbe = () => Promise<unknown>;

export type HealthReport = {
  status: "ok" | "degraded";
  checks: { database: HealthState; queue: HealthState; graph: HealthState };
};

const PROBE_TIMEOUT_MS = 2000;

/** One probe's state, with a timeout: an absent probe is "not configured", a slow one is "down". */
export async function probeHealth(check: HealthProbe | undefined, timeoutMs = PROBE_TIMEOUT_MS): Promise<HealthState> {
  if (!check) return "not configured";
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
  });
  try {
    return (await Promise.race([check(), timeout])) === "not configured" ? "not configured" : "up";
  } catch {
    return "down";
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Database, queue and graph probed together; "degraded" when a configured one is down. Only the database decides
 * readiness (healthStatusCode): the graph and the queue are optional features whose state is reported, not a
 * reason to refuse model traffic.
 */
export async function healthReport(probes: {
  database: HealthProbe;
  queue?: HealthProbe;
  graph?: HealthProbe;
}): Promise<HealthReport> {
  const [database, queue, graph] = await Promise.all([
    probeHealth(probes.database),
    probeHealth(probes.queue),
    probeHealth(probes.graph),
  ]);
  const checks = { database, queue, graph };
  return { status: Object.values(checks).includes("down") ? "degraded" : "ok", checks };
}

/** 503 only when the database is down: a process serves its own job with PostgreSQL alone. */
export function healthStatusCode(report: HealthReport): 200 | 503 {
  return report.checks.database === "down" ? 503 : 200;
}
