import { fileURLToPath } from "node:url";
import type { Database } from "@ams/db";
import {
  createDashboard,
  DashboardDefinition,
  dashboardJsonSchema,
  deleteDashboard,
  type GraphProvider,
  getDashboard,
  listDashboards,
  listDashboardsAdmin,
  PANEL_VISUALIZATIONS,
  provisionDashboards,
  runPanel,
  updateDashboard,
} from "@ams/model";
import { createRoute, z } from "@hono/zod-openapi";
import { QueryResult } from "./explore.ts";
import { requireGraph } from "./graph.ts";
import { jsonBody, jsonResponse, noContent, Ok, problemResponses, type TenantApp } from "./openapi.ts";

const tags = ["Dashboards"];
export const DEFAULT_DASHBOARDS_DIR = fileURLToPath(new URL("../../dashboards/", import.meta.url));

const Dashboard = z
  .object({ dashboardId: z.string(), revision: z.number(), isProvisioned: z.boolean() })
  .passthrough()
  .openapi("Dashboard");
const DashboardParam = z.object({
  dashboardId: z
    .string()
    .max(100)
    .openapi({ param: { name: "dashboardId", in: "path" } }),
});
const PanelParams = DashboardParam.extend({
  panelInstanceId: z
    .string()
    .max(100)
    .openapi({ param: { name: "panelInstanceId", in: "path" } }),
});

export type DashboardRouteDeps = {
  database: Database;
  graph?: GraphProvider;
  dashboardsDir?: string;
  log?: (err: unknown) => void;
};

/** Dashboards of the active organization plus the provisioned ones; provisioning starts with the app. */
export function registerDashboardRoutes(app: TenantApp, deps: DashboardRouteDeps) {
  const provisioned = provisionDashboards(deps.database, deps.dashboardsDir ?? DEFAULT_DASHBOARDS_DIR);
  provisioned.catch((err) => (deps.log ?? console.error)(err));
  const ready = async () => {
    await provisioned;
  };

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/panel-visualizations",
      tags,
      operationId: "listPanelVisualizations",
      responses: { 200: jsonResponse(z.array(Ok), "The panel visualizations"), ...problemResponses },
    }),
    (c) => c.json(PANEL_VISUALIZATIONS as unknown as Record<string, unknown>[], 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/dashboards/schema",
      tags,
      operationId: "getDashboardSchema",
      responses: { 200: jsonResponse(Ok, "JSON Schema of a DashboardDefinition"), ...problemResponses },
    }),
    (c) => c.json(dashboardJsonSchema() as Record<string, unknown>, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/dashboards/admin",
      tags,
      operationId: "listDashboardsAdmin",
      responses: {
        200: jsonResponse(z.array(Dashboard), "All dashboards, soft-deleted ones included"),
        ...problemResponses,
      },
    }),
    async (c) => {
      await ready();
      return c.json(await listDashboardsAdmin({ ctx: c.var.ctx, input: undefined }), 200);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/dashboards",
      tags,
      operationId: "listDashboards",
      responses: { 200: jsonResponse(z.array(Dashboard), "Latest revisions"), ...problemResponses },
    }),
    async (c) => {
      await ready();
      return c.json(await listDashboards({ ctx: c.var.ctx, input: undefined }), 200);
    },
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/dashboards",
      tags,
      operationId: "createDashboard",
      request: jsonBody(DashboardDefinition),
      responses: { 201: jsonResponse(Dashboard, "Created as revision 1"), ...problemResponses },
    }),
    async (c) => c.json(await createDashboard({ ctx: c.var.ctx, input: c.req.valid("json") }), 201),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/dashboards/{dashboardId}",
      tags,
      operationId: "getDashboard",
      request: { params: DashboardParam, query: z.object({ revision: z.coerce.number().int().min(1).optional() }) },
      responses: { 200: jsonResponse(Dashboard, "The latest revision, or ?revision=n"), ...problemResponses },
    }),
    async (c) => {
      await ready();
      return c.json(
        await getDashboard({ ctx: c.var.ctx, input: { ...c.req.valid("param"), ...c.req.valid("query") } }),
        200,
      );
    },
  );
  app.openapi(
    createRoute({
      method: "put",
      path: "/api/dashboards/{dashboardId}",
      tags,
      operationId: "updateDashboard",
      request: { params: DashboardParam, ...jsonBody(DashboardDefinition) },
      responses: { 200: jsonResponse(Dashboard, "Saved as the next revision"), ...problemResponses },
    }),
    async (c) => {
      await ready();
      return c.json(
        await updateDashboard({ ctx: c.var.ctx, input: { ...c.req.valid("param"), definition: c.req.valid("json") } }),
        200,
      );
    },
  );
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/dashboards/{dashboardId}",
      tags,
      operationId: "deleteDashboard",
      request: { params: DashboardParam },
      responses: { 204: noContent, ...problemResponses },
    }),
    async (c) => {
      await ready();
      await deleteDashboard({ ctx: c.var.ctx, input: c.req.valid("param") });
      return c.body(null, 204);
    },
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/dashboards/{dashboardId}/panels/{panelInstanceId}",
      tags,
      operationId: "runPanel",
      description:
        "Executes the panel's query on the active workspace; query-string values are the dashboard parameters.",
      request: { params: PanelParams },
      responses: {
        200: jsonResponse(z.object({ result: QueryResult }).passthrough(), "The panel's data"),
        ...problemResponses,
      },
    }),
    async (c) => {
      await ready();
      const input = { ...c.req.valid("param"), query: c.req.query() };
      return c.json(await runPanel({ ctx: c.var.ctx, input, graph: requireGraph(deps.graph) }), 200);
    },
  );
}
