import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { serve } from "@hono/node-server";
import type { Logger } from "../logger.ts";
import { closeAfterRefusedBody } from "../serve-options.ts";
import { metricsResponse, type ServiceMetrics } from "./metrics.ts";

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

export type HttpService = {
  server: Server;
  /** Resolves once the port listens. */
  listening: Promise<void>;
  /** The graceful stop (what SIGTERM runs): resolves when everything is closed; does not exit. */
  shutdown(reason: string): Promise<{ drained: boolean }>;
};

export type HttpServiceOptions = {
  log: Logger;
  fetch?: Fetch;
  port: number;
  hostname: string;
  /** A second port for GET /metrics (and /api/health when given): never routed by the ingress. */
  metricsPort?: number;
  metrics?: ServiceMetrics;
  /** Answers GET /api/health on the metrics port (the graph-worker, which has no other port). */
  health?: () => Promise<Response>;
  /** How long in-flight requests (and the work stopWork waits for) may take to finish after SIGTERM (default 25 s). */
  drainMs?: number;
  /**
   * How long closing may take once the drain bound has passed (default 10 s): the process exits on its own at
   * drainMs + closeMs after the signal at the latest. The chart's grace period is preStop + drain + close + a margin.
   */
  closeMs?: number;
  /**
   * Stops background work at the signal, beside the HTTP drain: consumers stop pulling and finish the job in hand
   * by `deadline` (epoch ms) or hand it back. Resolves false when something was handed back unfinished.
   */
  stopWork?: (deadline: number) => Promise<boolean | undefined>;
  /** Closes what the process holds once HTTP and the work have drained: queues, drivers, pools. */
  close: () => Promise<void>;
  /** Run on SIGTERM/SIGINT; tests leave it off and call shutdown themselves. */
  handleSignals?: boolean;
};

/**
 * Serves a process's HTTP app and shuts it down gracefully: on SIGTERM it stops accepting connections (a new
 * connection is refused at once) and stops its background work, lets the requests in flight and the work in hand
 * finish within drainMs, closes the remaining connections, then closes the process's resources and exits 0 (1 when
 * the bound was exceeded). Closing gets closeMs; a process still not done then exits 1 by itself.
 */
export function runHttpService(opts: HttpServiceOptions): HttpService {
  const drainMs = opts.drainMs ?? 25_000;
  const closeMs = opts.closeMs ?? 10_000;
  const inFlight = new Set<ServerResponse>();
  const servers: Server[] = [];
  const listen = (fetch: Fetch, port: number) => {
    const server = serve({ fetch: closeAfterRefusedBody(fetch) as never, port, hostname: opts.hostname }) as Server;
    server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
      inFlight.add(res);
      res.once("close", () => inFlight.delete(res));
    });
    servers.push(server);
    return server;
  };
  const side = opts.metrics || opts.health ? sideFetch(opts.metrics, opts.health) : undefined;
  const main = opts.fetch ? listen(opts.fetch, opts.port) : listen(side as Fetch, opts.port);
  if (opts.fetch && side && opts.metricsPort) listen(side, opts.metricsPort);
  const listening = Promise.all(
    servers.map((s) => (s.listening ? Promise.resolve() : new Promise<void>((r) => s.once("listening", () => r())))),
  ).then(() => {});

  let stopping: Promise<{ drained: boolean }> | undefined;
  const shutdown = (reason: string) => {
    stopping ??= (async () => {
      opts.log.info(`${reason}: draining ${inFlight.size} request(s) in flight (at most ${drainMs / 1000} s)`);
      for (const s of servers) s.close();
      const deadline = Date.now() + drainMs;
      const work = opts.stopWork?.(deadline).catch((err) => {
        opts.log.error("stopping the background work failed", { err });
        return false;
      });
      while (inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const requestsDrained = inFlight.size === 0;
      if (!requestsDrained) {
        opts.log.warn(`${inFlight.size} request(s) still running after ${drainMs / 1000} s: closed`);
      }
      for (const s of servers) s.closeAllConnections();
      const workDrained = (await work) !== false;
      await opts.close();
      opts.log.info("stopped");
      return { drained: requestsDrained && workDrained };
    })();
    return stopping;
  };
  if (opts.handleSignals !== false) {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      process.once(signal, () => {
        // A hard bound on the whole stop, so a hung close never outlives the pod's grace period.
        setTimeout(() => {
          opts.log.error("shutdown did not finish in time: exiting");
          process.exit(1);
        }, drainMs + closeMs).unref();
        void shutdown(signal).then(
          ({ drained }) => process.exit(drained ? 0 : 1),
          (err) => {
            opts.log.error("shutdown failed", { err });
            process.exit(1);
          },
        );
      });
    }
  }
  return { server: main, listening, shutdown };
}

function sideFetch(metrics: ServiceMetrics | undefined, health: (() => Promise<Response>) | undefined): Fetch {
  return async (request: Request) => {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/metrics" && metrics) return metricsResponse(metrics);
    if (request.method === "GET" && pathname === "/api/health" && health) return health();
    return new Response("not found\n", { status: 404 });
  };
}
