import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one process. Every series carries `service`; HTTP requests are counted and timed by
 * method, route template (never the concrete path: ids would explode the series) and status.
 */
export type ServiceMetrics = {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
};

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function createServiceMetrics(service: string, opts: { processMetrics?: boolean } = {}): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (opts.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: "archimate_" });
  return {
    registry,
    httpRequests: new Counter({
      name: "archimate_http_requests_total",
      help: "HTTP requests answered, by method, route template and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "archimate_http_request_duration_seconds",
      help: "HTTP request latency until the answer's headers, by method, route template and status",
      labelNames: ["method", "route", "status"],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

/** The route template a request matched: the gateway's rule when it set one, else Hono's last matched route. */
export function routeTemplate(c: Context): string {
  const set = (c.var as { route?: string }).route;
  if (set) return set;
  const path = routePath(c);
  return path && path !== "*" && path !== "/*" ? path : "unmatched";
}

/** Counts and times every request (register first, so it sees the final status). */
export function httpMetrics(metrics: ServiceMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const labels = { method: c.req.method, route: routeTemplate(c), status: String(c.res.status) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
    }
  };
}

/** GET /metrics in the Prometheus text format, for a metrics port that is not reachable from the ingress. */
export async function metricsResponse(metrics: ServiceMetrics): Promise<Response> {
  return new Response(await metrics.registry.metrics(), {
    headers: { "content-type": metrics.registry.contentType },
  });
}
