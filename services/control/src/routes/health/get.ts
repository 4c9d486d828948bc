import { healthReport, healthStatusCode } from "@ams/shared";
import { createRoute, z } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";
import { jsonResponse } from "../../http/openapi.ts";

const CheckState = z.enum(["up", "down", "not configured"]);
const Health = z
  .object({
    status: z.enum(["ok", "degraded"]),
    checks: z.object({ database: CheckState, queue: CheckState, graph: CheckState }),
  })
  .openapi("Health");

const route = createRoute({
  method: "get",
  path: "/api/health",
  operationId: "getHealth",
  tags: ["health"],
  responses: {
    200: jsonResponse(Health, "Ready: the database is up (status degraded when the queue or the graph is down)"),
    503: jsonResponse(Health, "The database is down"),
  },
});

/**
 * Public (probes call it): database, queue and graph as up, down or not configured. 503 only when the database is
 * down: the graph and the queue are optional features, reported but never a reason to take control out of rotation.
 */
export const registerHealthRoute = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const report = await healthReport({
      database: () => ctx.database.ping(),
      queue: ctx.health.queue,
      graph: ctx.health.graph,
    });
    return healthStatusCode(report) === 503 ? c.json(report, 503) : c.json(report, 200);
  });
