import { healthReport, healthStatusCode } from "@ams/shared";
import { answer, registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { ControlContext } from "../../context.ts";
import type { App } from "../../http/app-env.ts";

const CheckState = z.enum(["up", "down", "not configured"]);
const Health = z
  .object({
    status: z.enum(["ok", "degraded"]),
    checks: z.object({
      database: CheckState,
      queue: CheckState,
      graph: CheckState,
      /**
       * How this replica's events streams learn of commits: `live` (PostgreSQL NOTIFY), `polling` (that subscription
       * is lost: the change log is read every second), `not started` (no stream opened yet).
       */
      events: z.enum(["live", "polling", "not started"]),
      /** NATS, on which presences are shared between replicas (`not configured`: one replica). */
      presence: CheckState,
    }),
  })
  .openapi("Health");

/**
 * Public (probes call it): database, queue and graph as up, down or not configured, and the live collaboration's
 * events feed and presence sharing. 503 only when the database is down: the graph and the queue are optional
 * features, and events fall back to polling; reported but never a reason to take control out of rotation.
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
        description:
          "Ready: the database is up (status degraded when the queue or the graph is down, the events feed polls or presence sharing is down)",
        also: { 503: "The database is down" },
      },
      commonProblems: false,
    },
    async () => {
      const base = await healthReport({
        database: () => ctx.database.ping(),
        queue: ctx.health.queue,
        graph: ctx.health.graph,
      });
      const mode = ctx.live.events.feedMode();
      const events: "live" | "polling" | "not started" = mode === "notify" ? "live" : (mode ?? "not started");
      const presence = ctx.live.shareState();
      const degraded = base.status === "degraded" || events === "polling" || presence === "down";
      const report = {
        status: degraded ? ("degraded" as const) : ("ok" as const),
        checks: { ...base.checks, events, presence },
      };
      return healthStatusCode(base) === 503 ? answer(503, report) : report;
    },
  );
