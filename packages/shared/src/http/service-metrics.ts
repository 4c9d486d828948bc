import { Gauge, Histogram } from "prom-client";
import type { ServiceMetrics } from "./metrics.ts";

const LONG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

type DatabaseSample = { up: boolean; pingSeconds: number; pool?: { inUse: number; idle: number } };

/**
 * Database gauges read at scrape time: reachable (1/0) with the ping's duration, the pool's size, and its connections
 * in use and idle as PostgreSQL counts them (not for PGlite). postgres.js does not expose how many statements wait for
 * a connection; a pool whose in-use count stays at its size is where they wait.
 */
export function registerDatabaseMetrics(
  metrics: ServiceMetrics,
  db: {
    ping(): Promise<void>;
    maxConnections: number;
    poolStats?(): Promise<{ inUse: number; idle: number } | undefined>;
  },
) {
  // prom-client collects every metric of a scrape at once: they share one sample, taken once per scrape.
  let current: Promise<DatabaseSample> | undefined;
  const sample = () => {
    current ??= (async (): Promise<DatabaseSample> => {
      const started = performance.now();
      try {
        await db.ping();
      } catch {
        return { up: false, pingSeconds: (performance.now() - started) / 1000 };
      }
      const pingSeconds = (performance.now() - started) / 1000;
      const pool = await db.poolStats?.().catch(() => undefined);
      return { up: true, pingSeconds, pool };
    })().finally(() => {
      current = undefined;
    });
    return current;
  };
  new Gauge({
    name: "archimate_db_up",
    help: "1 when the database answered the scrape's ping",
    registers: [metrics.registry],
    async collect() {
      this.set((await sample()).up ? 1 : 0);
    },
  });
  new Gauge({
    name: "archimate_db_ping_seconds",
    help: "Round trip of the scrape's ping to the database",
    registers: [metrics.registry],
    async collect() {
      this.set((await sample()).pingSeconds);
    },
  });
  new Gauge({
    name: "archimate_db_pool_max_connections",
    help: "Connections this process's pool may open (DB_POOL_MAX)",
    registers: [metrics.registry],
    collect() {
      this.set(db.maxConnections);
    },
  });
  new Gauge({
    name: "archimate_db_pool_connections",
    help: "Connections of this process's pool by state (in_use: running a statement or in a transaction), as PostgreSQL counts them at the scrape",
    labelNames: ["state"],
    registers: [metrics.registry],
    async collect() {
      const { pool } = await sample();
      this.reset();
      if (!pool) return;
      this.set({ state: "in_use" }, pool.inUse);
      this.set({ state: "idle" }, pool.idle);
    },
  });
}

/** Rebuild jobs waiting and the age of the oldest (the queue lag), read at scrape time. */
export function registerQueueMetrics(
  metrics: ServiceMetrics,
  stats: () => Promise<{ queued: number; oldestSeconds: number }>,
) {
  let oldest = 0;
  new Gauge({
    name: "archimate_graph_jobs_queued",
    help: "Graph rebuild jobs waiting to run",
    registers: [metrics.registry],
    async collect() {
      const s = await stats().catch(() => undefined);
      if (!s) return;
      this.set(s.queued);
      oldest = s.oldestSeconds;
    },
  });
  new Gauge({
    name: "archimate_graph_queue_lag_seconds",
    help: "Age of the oldest graph rebuild job still waiting (0 when none)",
    registers: [metrics.registry],
    collect() {
      this.set(oldest);
    },
  });
}

export function importDurationHistogram(metrics: ServiceMetrics): Histogram<"status"> {
  return new Histogram({
    name: "archimate_import_duration_seconds",
    help: "Open Exchange imports (upload included), by answer status",
    labelNames: ["status"],
    buckets: LONG_BUCKETS,
    registers: [metrics.registry],
  });
}

export function rebuildDurationHistogram(metrics: ServiceMetrics): Histogram<"outcome"> {
  return new Histogram({
    name: "archimate_graph_rebuild_duration_seconds",
    help: "Graph rebuild jobs run by this process, by outcome (succeeded, retry, failed)",
    labelNames: ["outcome"],
    buckets: LONG_BUCKETS,
    registers: [metrics.registry],
  });
}

/** A gauge read at each scrape from `read` (a count a service keeps in memory). */
export function registerGauge(metrics: ServiceMetrics, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      this.set(read());
    },
  });
}
