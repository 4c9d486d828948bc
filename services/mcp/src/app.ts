import type { Database } from "@ams/db";
import type { GraphProvider, RequestContext } from "@ams/model";
import { healthReport, healthStatusCode, type Logger, type ServiceTokens, silentLogger } from "@ams/shared";
import {
  accessLog,
  httpMetrics,
  notFoundProblem,
  onErrorProblem,
  type RequestIdVariables,
  requestId,
  SERVICE_TOKEN_HEADER,
  type ServiceMetrics,
} from "@ams/shared/http";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { authenticate } from "./auth.ts";
import { checkInitializeParams } from "./initialize-check.ts";
import { createMcpServer } from "./server.ts";
import { toolsCallShortcut } from "./tools-call-shortcut.ts";
import { toolsListShortcut } from "./tools-list-shortcut.ts";

export type McpDeps = {
  database: Database;
  tokens: ServiceTokens;
  /** Largest request body in bytes (default 50 MiB: import_model carries whole models). */
  bodyLimit?: number;
  /** Where unhandled errors are logged (JSON lines); silent when absent. */
  log?: Logger;
  /** Resolves `Service Plugin IconPack` values for render_view (the plugin registry), as the tenant does. */
  resolveIcon?: RequestContext["resolveIcon"];
  /** Prometheus metrics of this process; absent: not collected. */
  metrics?: ServiceMetrics;
  /** The graph read model for explore, run_dashboard and rebuild_graph (the tenant's, in standalone mode). */
  graph?: GraphProvider;
};

export const MCP_PATHS = ["/api/mcp", "/api/mcp/"];

/** A stateless server has no stream to offer on GET and no session to end on DELETE. */
const methodNotAllowed = () =>
  new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Method not allowed: this stateless MCP endpoint accepts POST only" },
      id: null,
    }),
    { status: 405, headers: { allow: "POST", "content-type": "application/json" } },
  );

/**
 * The MCP endpoint (Streamable HTTP, stateless): every POST gets a fresh McpServer and transport, built on the
 * caller's RequestContext; JSON-RPC responses come back as one JSON body (no SSE: the tools never stream). A plain
 * tools/list or tools/call is answered without them, byte for byte as they would (the two shortcuts).
 */
export function createMcpApp(deps: McpDeps) {
  const log = deps.log ?? silentLogger;
  const bodyLimit = deps.bodyLimit ?? 50 * 1024 * 1024;
  const app = new Hono<{ Variables: RequestIdVariables & { organizationId?: string | null } }>();
  app.use("*", requestId());
  app.use("*", accessLog(log, { organizationOf: (c) => c.var.organizationId }));
  if (deps.metrics) app.use("*", httpMetrics(deps.metrics));
  app.onError(onErrorProblem(log));
  app.notFound(notFoundProblem());

  // Liveness/readiness of the service alone (split deployment probes); no caller involved.
  // Same shape as control's and the tenant's; the graph's own health is the tenant's to report.
  app.get("/api/health", async (c) => {
    const report = await healthReport({ database: () => deps.database.ping() });
    return c.json(report, healthStatusCode(report));
  });

  for (const path of MCP_PATHS) {
    app.all(path, async (c) => {
      const call = await authenticate(deps, c.req.header(SERVICE_TOKEN_HEADER));
      c.set("organizationId", call.claims.organizationId);
      call.ctx.requestId = c.var.requestId;
      if (c.req.method !== "POST") return methodNotAllowed();
      const shortcut = await toolsListShortcut(c.req.raw, call);
      if ("response" in shortcut) return shortcut.response;
      const requestLog = log.child({ request_id: c.var.requestId });
      const answered = shortcut.plain && (await toolsCallShortcut(shortcut.plain, call, requestLog));
      if (answered) return answered;
      const server = createMcpServer(call, requestLog);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: bodyLimit,
      });
      await server.connect(transport);
      checkInitializeParams(transport);
      try {
        return await transport.handleRequest(shortcut.request);
      } finally {
        // The JSON answer is complete at this point; closing frees the per-request server.
        void server.close();
      }
    });
  }
  return app;
}

export type McpApp = ReturnType<typeof createMcpApp>;
