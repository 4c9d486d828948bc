import {
  type RouteContract,
  type RouteInput,
  type RouteOutput,
  type RouteResult,
  registerRoute,
} from "@ams/shared/http";
import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { clientIp } from "../auth/client-ip.ts";
import type { ControlContext } from "../context.ts";
import { routeTable } from "../gateway/routes.ts";
import { type ContextOf, verbContext, type Who } from "../verbs/context.ts";
import type { App, AppEnv } from "./app-env.ts";

type Schema = z.ZodType | undefined;

/** A control route: its contract, who may call it, and the one verb it calls. */
export type ControlRoute = {
  method: string;
  path: string;
  who: Who;
  register(app: App, services: ControlContext): void;
};

export type ControlRouteArgs<W extends Who, P, Q, B> = { ctx: ContextOf<W>; c: Context<AppEnv> } & RouteInput<P, Q, B>;

/**
 * Declares a control route: the contract (method, path, input, output), who may call it, and what it runs — one
 * verb call. The same contract shape as the tenant's routes (packages/shared/src/http/route.ts).
 */
export function controlRoute<
  W extends Who,
  P extends Schema,
  Q extends Schema,
  B extends Schema,
  Out extends RouteOutput | undefined = undefined,
>(
  contract: RouteContract<P, Q, B, Out> & { who: W },
  run: (args: ControlRouteArgs<W, P, Q, B>) => Promise<RouteResult<Out>> | RouteResult<Out>,
): ControlRoute {
  return {
    method: contract.method,
    path: contract.path,
    who: contract.who,
    register(app, services) {
      assertGatewayAgrees(contract.method, contract.path, contract.who);
      registerRoute(app, contract, (c, input) =>
        run({
          ctx: verbContext(services, c.var.access, contract.who, {
            address: clientIp(c, services.env.TRUST_PROXY_HOPS),
          }),
          c,
          ...input,
        }),
      );
    },
  };
}

export function registerControlRoutes(app: App, services: ControlContext, routes: ControlRoute[]): void {
  for (const route of routes) route.register(app, services);
}

const MEMBER_TARGETS = new Set(["active-org", "active-workspace", "org-param", "workspace-param", "body-org"]);

/** A contract's `who` must say what the gateway's table enforces for the same route; a mismatch stops start-up. */
function assertGatewayAgrees(method: string, path: string, who: Who): void {
  const tablePath = path.replace(/\{(\w+)\}/g, ":$1");
  const rule = routeTable.find((r) => r.method === method.toUpperCase() && r.path === tablePath);
  if (!rule) throw new Error(`${method.toUpperCase()} ${tablePath} is missing from the gateway's access table`);
  const enforced: Who =
    rule.auth === "public" ? "public" : MEMBER_TARGETS.has(rule.target) && rule.need ? "member" : "signed-in";
  if (enforced !== who) {
    throw new Error(`${method.toUpperCase()} ${tablePath} declares '${who}' but the gateway enforces '${enforced}'`);
  }
}
