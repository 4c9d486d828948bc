import type { Database } from "@ams/db";
import type { GraphProvider } from "@ams/model";
import {
  type HealthProbe,
  healthReport,
  healthStatusCode,
  type Logger,
  type ServiceTokens,
  silentLogger,
} from "@ams/shared";
import {
  accessLog,
  httpMetrics,
  importDurationHistogram,
  limitBody,
  notFoundProblem,
  onErrorProblem,
  problemFromZod,
  refuseUnstorableText,
  requestId,
  type ServiceMetrics,
} from "@ams/shared/http";
import { OpenAPIHono } from "@hono/zod-openapi";
import { type TenantEnv, verifyServiceToken } from "./middleware/service-auth.ts";
import { registerAnalysisRoutes } from "./routes/analysis.ts";
import { registerChangeLogRoutes } from "./routes/change-log.ts";
import { registerDashboardRoutes } from "./routes/dashboards.ts";
import { registerDraftRoutes } from "./routes/drafts.ts";
import { registerElementRoutes } from "./routes/elements.ts";
import { registerExploreRoutes } from "./routes/explore.ts";
import { registerFolderRoutes } from "./routes/folders.ts";
import { registerGraphRoutes } from "./routes/graph.ts";
import { registerHistoryRoutes } from "./routes/history.ts";
import { type PluginRegistry, registerPluginRoutes } from "./routes/plugins.ts";
import { registerPropertyDefinitionRoutes } from "./routes/property-definitions.ts";
import { registerRelationshipRoutes } from "./routes/relationships.ts";
import { registerShareLinkRoutes } from "./routes/share-links.ts";
import { registerTableRoutes } from "./routes/table.ts";
import { registerTransferRoutes, workspaceFileCreator } from "./routes/transfer.ts";
import { registerValidationRoutes } from "./routes/validation.ts";
import { registerViewRoutes } from "./routes/views.ts";
import { registerWorkspaceRoutes } from "./routes/workspaces.ts";

export type TenantDeps = {
  database: Database;
  tokens: ServiceTokens;
  /** Largest JSON body accepted by the model routes, in bytes (default 1 MiB). */
  jsonBodyLimit?: number;
  /** Largest upload accepted by import routes, in bytes (default 50 MiB). */
  uploadLimit?: number;
  /** Where unhandled errors are logged (JSON lines); silent when absent. */
  log?: Logger;
  /** Directories POST /api/workspaces {path} may import from (IMPORT_PATHS); none by default. */
  importRoots?: string[];
  /** Resolves `Service Plugin IconPack` values for rendering; defaults to the plugin registry's resolver. */
  resolveIcon?: (value: string) => { href: string } | { svg: string } | undefined;
  /** The icon-pack plugins loaded at start-up (loadPluginRegistry); none means no plugins and type icons only. */
  plugins?: PluginRegistry;
  /** Neo4j and the rebuild queue; absent: rebuild, explore and panels answer 503 saying how to enable them. */
  graph?: GraphProvider;
  /** Where the provisioned dashboards' files are (default services/tenant/dashboards). */
  dashboardsDir?: string;
  /** Probes of the job queue and the graph for /api/health; absent ones report "not configured". */
  health?: { queue?: HealthProbe; graph?: HealthProbe };
  /** Prometheus metrics of this process; absent: not collected. */
  metrics?: ServiceMetrics;
  /**
   * false: no request id, access log or metrics middleware at all (the bench's floor, to measure what they cost).
   * Every process keeps the default, on.
   */
  observability?: boolean;
};

/**
 * GET /api/health of the tenant alone (split deployment): its database, job queue and graph, in the shape control
 * answers; control's own /api/health reads the queue and graph states from here.
 */
function registerHealth(app: OpenAPIHono<TenantEnv>, database: Database, health: TenantDeps["health"]) {
  app.get("/api/health", async (c) => {
    const report = await healthReport({ database: () => database.ping(), queue: health?.queue, graph: health?.graph });
    return c.json(report, healthStatusCode(report));
  });
}

/** Paths whose bodies are model files, not JSON: they get the upload limit instead of the JSON one. */
const UPLOAD_PATHS = new Set(["/api/import", "/api/workspaces", "/api/mcp"]);

export function createTenantApp(deps: TenantDeps) {
  const app = new OpenAPIHono<TenantEnv>({ defaultHook: problemFromZod });
  const jsonLimit = deps.jsonBodyLimit ?? 1024 * 1024;
  const uploadLimit = deps.uploadLimit ?? 50 * 1024 * 1024;
  const log = deps.log ?? silentLogger;
  const observe = deps.observability !== false;
  if (observe) {
    app.use("*", requestId());
    app.use("*", accessLog(log, { organizationOf: (c) => c.var.ctx?.organizationId }));
  }
  if (observe && deps.metrics) {
    app.use("*", httpMetrics(deps.metrics));
    const imports = importDurationHistogram(deps.metrics);
    app.use("/api/*", async (c, next) => {
      const isImport =
        c.req.method === "POST" &&
        (c.req.path === "/api/import" ||
          (c.req.path === "/api/workspaces" && !(c.req.header("content-type") ?? "").includes("json")));
      if (!isImport) return next();
      const started = performance.now();
      await next();
      imports.observe({ status: String(c.res.status) }, (performance.now() - started) / 1000);
    });
  }
  const smallBodies = limitBody(jsonLimit);
  const largeBodies = limitBody(uploadLimit);
  app.use("/api/*", (c, next) => (UPLOAD_PATHS.has(c.req.path) ? largeBodies(c, next) : smallBodies(c, next)));
  app.use("/api/*", refuseUnstorableText());
  const resolveIcon = deps.resolveIcon ?? deps.plugins?.resolveIcon;
  app.use("/api/*", verifyServiceToken(deps.database, deps.tokens, resolveIcon));
  app.use("/api", verifyServiceToken(deps.database, deps.tokens, resolveIcon));
  app.onError(onErrorProblem(log));
  app.notFound(notFoundProblem());

  registerHealth(app, deps.database, deps.health);
  registerPluginRoutes(app, deps); // first after health: its middleware refreshes plugin flags for the routes below
  registerTransferRoutes(app, { uploadLimit });
  registerWorkspaceRoutes(app, { createFromFile: workspaceFileCreator({ importRoots: deps.importRoots }) });
  registerElementRoutes(app);
  registerFolderRoutes(app);
  registerRelationshipRoutes(app);
  registerViewRoutes(app);
  registerPropertyDefinitionRoutes(app);
  registerHistoryRoutes(app);
  registerDraftRoutes(app);
  registerTableRoutes(app);
  registerAnalysisRoutes(app);
  registerValidationRoutes(app);
  registerChangeLogRoutes(app);
  registerGraphRoutes(app, deps.graph);
  registerExploreRoutes(app, deps.graph);
  registerDashboardRoutes(app, { ...deps, log });
  registerShareLinkRoutes(app, { database: deps.database, resolveIcon });
  app.doc31("/api/openapi.json", {
    openapi: "3.1.0",
    info: { title: "ArchiMate modeling service: model API", version: "1.0.0" },
  });
  return app;
}

export type TenantApp = ReturnType<typeof createTenantApp>;
