import type { Database } from "@ams/db";
import type { RequestContext } from "@ams/model";
import { AppError, healthReport, type ServiceTokens, toProblem } from "@ams/shared";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { Hono } from "hono";
import { authenticate, SERVICE_TOKEN_HEADER } from "./auth.ts";
import { createMcpServer } from "./server.ts";
import type { Logger } from "./tools/call.ts";

export type McpDeps = {
  database: Database;
  tokens: ServiceTokens;
  /** Largest request body in bytes (default 50 MiB: import_model carries whole models). */
  bodyLimit?: number;
  log?: Logger;
  /** Resolves `Service Plugin IconPack` values for render_view (the plugin registry), as the tenant does. */
  resolveIcon?: RequestContext["resolveIcon"];
};

export const MCP_PATHS = ["/api/mcp", "/api/mcp/"];

function problemResponse(err: unknown, log: Logger): Response {
  const problem = toProblem(err);
  if (problem.status === 500) log(err);
  const headers: Record<string, string> = { "content-type": "application/problem+json" };
  if (err instanceof AppError && err.headers) Object.assign(headers, err.headers);
  return new Response(JSON.stringify(problem), { status: problem.status, headers });
}

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
 * caller's RequestContext; JSON-RPC responses come back as one JSON body (no SSE: the tools never stream).
 */
export function createMcpApp(deps: McpDeps) {
  const log = deps.log ?? ((err: unknown) => console.error(err));
  const bodyLimit = deps.bodyLimit ?? 50 * 1024 * 1024;
  const app = new Hono();
  app.onError((err) => problemResponse(err, log));
  app.notFound((c) => problemResponse(new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`), log));

  // Liveness/readiness of the service alone (split deployment probes); no caller involved.
  // Same shape as control's and the tenant's; MCP itself uses neither the job queue nor the graph.
  app.get("/api/health", async (c) => {
    const report = await healthReport({ database: () => deps.database.ping() });
    return c.json(report, report.status === "degraded" ? 503 : 200);
  });

  for (const path of MCP_PATHS) {
    app.all(path, async (c) => {
      const call = await authenticate(deps, c.req.header(SERVICE_TOKEN_HEADER));
      if (c.req.method !== "POST") return methodNotAllowed();
      const server = createMcpServer(call, log);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: bodyLimit,
      });
      await server.connect(transport);
      try {
        return await transport.handleRequest(c.req.raw);
      } finally {
        // The JSON answer is complete at this point; closing frees the per-request server.
        void server.close();
      }
    });
  }
  return app;
}

export type McpApp = ReturnType<typeof createMcpApp>;
