import { healthReport, healthStatusCode } from "@ams/shared";
import { answer, registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";

const CheckState = z.enum(["up", "down", "not configured"]);
const Health = z
  .object({
    status: z.enum(["ok", "degraded"]),
    checks: z.object({ database: CheckState, queue: CheckState, graph: CheckState }),
  })
  .openapi("Health");

/**
 * Public (probes call it): database, queue and graph as up, down or not configured. 503 only when the database is
 * down: the graph and the queue are optional features, reported but never a reason to take control out of rotation.
 */
export const registerHealthRoute = (app: App, ctx: ControlContext) =>
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/health",
      operationId: "getHealth",
      tags: ["health"],
      output: {
        schema: Health,
        description: "Ready: the database is up (status degraded when the queue or the graph is down)",
        also: { 503: "The database is down" },
      },
      commonProblems: false,
    },
    async () => {
      const report = await healthReport({
        database: () => ctx.database.ping(),
        queue: ctx.health.queue,
        graph: ctx.health.graph,
      });
      return healthStatusCode(report) === 503 ? answer(503, report) : report;
    },
  );
