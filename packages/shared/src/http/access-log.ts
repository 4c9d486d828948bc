import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "../logger.ts";
import { routeTemplate } from "./metrics.ts";

/**
 * One JSON line per request: method, route template, status, duration, the request id and the organization the
 * request acted on. Never the path's query, headers or bodies, so no token or password can reach the log.
 * Register after requestId().
 */
export function accessLog(
  log: Logger,
  opts: { organizationOf?: (c: Context) => string | null | undefined } = {},
): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.info("request", {
        request_id: (c.var as { requestId?: string }).requestId,
        method: c.req.method,
        route: routeTemplate(c),
        status: c.res.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        organization_id: opts.organizationOf?.(c) ?? null,
      });
    }
  };
}
