import { fileURLToPath } from "node:url";
import type { Database } from "@ams/db";
import {
  createDashboard,
  Dashboard,
  DashboardDefinition,
  DashboardPageQuery,
  dashboardJsonSchema,
  deleteDashboard,
  type GraphProvider,
  getDashboard,
  JsonSchemaDocument,
  listDashboards,
  listDashboardsAdmin,
  PANEL_VISUALIZATIONS,
  PanelRun,
  PanelVisualizationInfo,
  provisionDashboards,
  restoreDashboard,
  runPanel,
  updateDashboard,
} from "@ams/model";
import type { Logger } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import { requireGraph } from "./graph.ts";
import type { TenantApp } from "./openapi.ts";

const tags = ["Dashboards"];
export const DEFAULT_DASHBOARDS_DIR = fileURLToPath(new URL("../../dashboards/", import.meta.url));

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
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/dashboards/admin",
      tags,
      operationId: "listDashboardsAdmin",
      output: { schema: z.array(Dashboard), description: "All dashboards, soft-deleted ones included" },
    },
    async (c) => {
      await ready();
      return listDashboardsAdmin({ ctx: c.var.ctx, input: undefined });
    },
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/dashboards",
      tags,
      operationId: "listDashboards",
      query: DashboardPageQuery,
      output: {
        schema: z.array(Dashboard),
        description: "Latest revisions, provisioned first then by title; with `limit`/`offset`, one page of them",
      },
    },
    async (c, { query }) => {
      await ready();
      return listDashboards({ ctx: c.var.ctx, input: query });
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
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/dashboards/{dashboardId}",
      tags,
      operationId: "getDashboard",
      params: DashboardParam,
      query: z.object({ revision: z.coerce.number().int().min(1).optional() }),
      output: { schema: Dashboard, description: "The latest revision, or ?revision=n" },
    },
    async (c, { params, query }) => {
      await ready();
      return getDashboard({ ctx: c.var.ctx, input: { ...params, ...query } });
    },
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/dashboards/{dashboardId}",
      tags,
      operationId: "updateDashboard",
      params: DashboardParam,
      body: DashboardDefinition,
      output: { schema: Dashboard, description: "Saved as the next revision" },
    },
    async (c, { params, body }) => {
      await ready();
      return updateDashboard({ ctx: c.var.ctx, input: { ...params, definition: body } });
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
  registerRoute(
    app,
    {
      method: "post",
      path: "/api/dashboards/{dashboardId}/restore",
      tags,
      operationId: "restoreDashboard",
      description: "Lists a soft-deleted dashboard again, with all its revisions (404 when it is not deleted).",
      params: DashboardParam,
      output: { schema: Dashboard, description: "Restored, at its latest revision" },
    },
    async (c, { params }) => {
      await ready();
      return restoreDashboard({ ctx: c.var.ctx, input: params });
    },
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/dashboards/{dashboardId}/panels/{panelInstanceId}",
      tags,
      operationId: "runPanel",
      description:
        "Executes the panel's query on the active workspace; query-string values are the dashboard parameters.",
      params: PanelParams,
      output: { schema: PanelRun, description: "The panel's data: its query's result at the dashboard's revision" },
    },
    async (c, { params }) => {
      await ready();
      const input = { ...params, query: c.req.query() };
      return runPanel({ ctx: c.var.ctx, input, graph: requireGraph(deps.graph) });
    },
  );
}
