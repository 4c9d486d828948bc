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
    200: jsonResponse(Health, "Every configured dependency is up"),
    503: jsonResponse(Health, "A configured dependency is down"),
  },
});

const PROBE_TIMEOUT_MS = 2000;

async function probe(check: (() => Promise<void>) | undefined): Promise<z.infer<typeof CheckState>> {
  if (!check) return "not configured";
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return "up";
  } catch {
    return "down";
  } finally {
    clearTimeout(timer);
  }
}

/** Public (probes call it): database, queue and graph as up, down or not configured; 503 when one is down. */
export const registerHealthRoute = (app: App, ctx: ControlContext) =>
  app.openapi(route, async (c) => {
    const [database, queue, graph] = await Promise.all([
      probe(() => ctx.database.ping()),
      probe(ctx.health.queue),
      probe(ctx.health.graph),
    ]);
    const checks = { database, queue, graph };
    const down = Object.values(checks).includes("down");
    return down ? c.json({ status: "degraded" as const, checks }, 503) : c.json({ status: "ok" as const, checks }, 200);
  });
