import { fileURLToPath } from "node:url";
import type { Database } from "@ams/db";
import {
  createDashboard,
  DashboardDefinition,
  dashboardJsonSchema,
  deleteDashboard,
  type GraphProvider,
  getDashboard,
  JsonSchemaDocument,
  listDashboards,
  listDashboardsAdmin,
  PANEL_VISUALIZATIONS,
  PanelVisualizationInfo,
  provisionDashboards,
  restoreDashboard,
  runPanel,
  updateDashboard,
} from "@ams/model";
import type { Logger } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { createRoute, z } from "@hono/zod-openapi";
import { QueryResult } from "./explore.ts";
import { requireGraph } from "./graph.ts";
import { jsonBody, jsonResponse, problemResponses, type TenantApp } from "./openapi.ts";

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
  log: Logger;
};

/** Dashboards of the active organization plus the provisioned ones; provisioning starts with the app. */
export function registerDashboardRoutes(app: TenantApp, deps: DashboardRouteDeps) {
  const provisioned = provisionDashboards(deps.database, deps.dashboardsDir ?? DEFAULT_DASHBOARDS_DIR);
  provisioned.catch((err) => deps.log.error("provisioning the dashboards failed", { err }));
  const ready = async () => {
    await provisioned;
  };

  registerRoute(
    app,
    {
      method: "get",
      path: "/api/panel-visualizations",
      tags,
      operationId: "listPanelVisualizations",
      output: { schema: z.array(PanelVisualizationInfo), description: "The panel visualizations" },
    },
    async (_c) => [...PANEL_VISUALIZATIONS],
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/dashboards/schema",
      tags,
      operationId: "getDashboardSchema",
      output: { schema: JsonSchemaDocument, description: "JSON Schema of a DashboardDefinition" },
    },
    async (_c) => dashboardJsonSchema(),
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
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/dashboards",
      tags,
      operationId: "createDashboard",
      body: DashboardDefinition,
      output: { schema: Dashboard, status: 201, description: "Created as revision 1" },
    },
    (c, { body }) => createDashboard({ ctx: c.var.ctx, input: body }),
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
  registerRoute(
    app,
    {
      method: "delete",
      path: "/api/dashboards/{dashboardId}",
      tags,
      operationId: "deleteDashboard",
      params: DashboardParam,
    },
    async (c, { params }) => {
      await ready();
      await deleteDashboard({ ctx: c.var.ctx, input: params });
    },
  );
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/dashboards/{dashboardId}/restore",
      tags,
      operationId: "restoreDashboard",
      description: "Lists a soft-deleted dashboard again, with all its revisions (404 when it is not deleted).",
      request: { params: DashboardParam },
      responses: { 200: jsonResponse(Dashboard, "Restored, at its latest revision"), ...problemResponses },
    }),
    async (c) => {
      await ready();
      return c.json(await restoreDashboard({ ctx: c.var.ctx, input: c.req.valid("param") }), 200);
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
