import { sql } from "@ams/db";
import { AppError, invalid, notFound } from "@ams/shared";
import { z } from "zod";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../../context.ts";
import type { ListWindow } from "../../list-shape.ts";
import type { DashboardListPage } from "../../pages.ts";
import { withArticle } from "../../words.ts";
import { parseReadQuery } from "../cypher/parse.ts";
import type { GraphDeps } from "../deps.ts";
import { answerScoped } from "../explore.ts";
import type { Dashboard, DashboardRun, PanelRun } from "../schemas.ts";
import { coerceParameter, validateDefinition } from "./definition.ts";
import { toDashboardListItem } from "./list-item.ts";
import {
  appendRevision,
  getRow,
  insertDashboard,
  listRows,
  pageRows,
  requireEditable,
  softDelete,
  toDashboard,
  undelete,
} from "./store.ts";

/** The largest page GET /api/dashboards answers (a dashboard can be about a megabyte). */
export const DASHBOARD_PAGE_MAX = 500;

function requireOrganization(ctx: RequestContext): string {
  if (!ctx.organizationId) throw new AppError("NOT_FOUND", "No active organization");
  return ctx.organizationId;
}

/** The optional window of GET /api/dashboards: without it the whole list, as before. */
export const DashboardPageQuery = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(DASHBOARD_PAGE_MAX)
    .optional()
    .describe(`At most this many dashboards (1 to ${DASHBOARD_PAGE_MAX}); a shorter page is the last one`),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Skip this many dashboards of the list's order (provisioned first, then by title); default 0"),
});
export type DashboardPageQuery = z.infer<typeof DashboardPageQuery>;

/**
 * GET /api/dashboards: latest revisions of the active organization's dashboards and the provisioned ones; with
 * `limit`/`offset`, one window of them read in the database.
 */
export async function listDashboards({ ctx, input }: Verb<DashboardPageQuery | undefined>): Promise<Dashboard[]> {
  requireCapability(ctx, "model:read");
  return (await listRows(ctx.database, requireOrganization(ctx), false, input)).map((r) => toDashboard(r));
}

/**
 * One window of the same list, read in the database: each dashboard's summary (description cut, panel count), with
 * its parameters and panels only when `include` names them (MCP's list_dashboards).
 */
export async function pageDashboards({
  ctx,
  input,
}: Verb<ListWindow & { include?: readonly ("parameters" | "panels")[] }>): Promise<DashboardListPage> {
  requireCapability(ctx, "model:read");
  const include = input.include ?? [];
  const page = await pageRows(ctx.database, requireOrganization(ctx), input, {
    parameters: include.includes("parameters"),
    panels: include.includes("panels"),
  });
  return { items: page.items.map(toDashboardListItem), total: page.total };
}

/** GET /api/dashboards/admin: soft-deleted ones included, with isProvisioned and deleted. */
export async function listDashboardsAdmin({ ctx }: Verb): Promise<Dashboard[]> {
  requireCapability(ctx, "dashboard:write");
  return (await listRows(ctx.database, requireOrganization(ctx), true)).map((r) => toDashboard(r, true));
}

export async function getDashboard({
  ctx,
  input,
}: Verb<{ dashboardId: string; revision?: number }>): Promise<Dashboard> {
  requireCapability(ctx, "model:read");
  return toDashboard(await getRow(ctx.database, requireOrganization(ctx), input.dashboardId, input.revision));
}

export async function createDashboard({ ctx, input }: Verb<unknown>): Promise<Dashboard> {
  requireCapability(ctx, "dashboard:write");
  const orgId = requireOrganization(ctx);
  const id = await insertDashboard(ctx.database, orgId, validateDefinition(input), ctx.userId);
  return toDashboard(await getRow(ctx.database, orgId, id));
}

export async function updateDashboard({
  ctx,
  input,
}: Verb<{ dashboardId: string; definition: unknown }>): Promise<Dashboard> {
  requireCapability(ctx, "dashboard:write");
  const orgId = requireOrganization(ctx);
  const def = validateDefinition(input.definition);
  await requireEditable(ctx.database, orgId, input.dashboardId);
  await appendRevision(ctx.database, orgId, input.dashboardId, def, ctx.userId);
  return toDashboard(await getRow(ctx.database, orgId, input.dashboardId));
}

export async function deleteDashboard({ ctx, input }: Verb<{ dashboardId: string }>): Promise<void> {
  requireCapability(ctx, "dashboard:write");
  const orgId = requireOrganization(ctx);
  await requireEditable(ctx.database, orgId, input.dashboardId);
  await softDelete(ctx.database, orgId, input.dashboardId);
}

/** POST /api/dashboards/:dashboardId/restore: a soft-deleted dashboard is listed again, at its latest revision. */
export async function restoreDashboard({ ctx, input }: Verb<{ dashboardId: string }>): Promise<Dashboard> {
  requireCapability(ctx, "dashboard:write");
  const orgId = requireOrganization(ctx);
  await undelete(ctx.database, orgId, input.dashboardId);
  return toDashboard(await getRow(ctx.database, orgId, input.dashboardId));
}

/**
 * GET /api/dashboards/:dashboardId/panels/:panelInstanceId: the query-string values are checked against the
 * dashboard's parameters (unknown keys, missing required ones, wrong types: 422), then the panel's query runs
 * through the same scoped path as explore.
 */
export async function runPanel({
  ctx,
  input,
  graph,
}: Verb<{ dashboardId: string; panelInstanceId: string; query: Record<string, string> }> & {
  graph: GraphDeps;
}): Promise<PanelRun> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const row = await getRow(ctx.database, requireOrganization(ctx), input.dashboardId);
  const def = row.definition;
  const panel = def.panels.find((p) => p.panelInstanceId === input.panelInstanceId);
  if (!panel) throw notFound("Panel", input.panelInstanceId);
  const declared = new Map(def.parameters.map((p) => [p.name, p]));
  for (const key of Object.keys(input.query)) {
    if (!declared.has(key))
      throw invalid(
        key,
        `not a parameter of dashboard '${row.id}' (known: ${[...declared.keys()].join(", ") || "none"})`,
      );
  }
  const values: Record<string, string | number | boolean> = {};
  for (const p of def.parameters) {
    const raw = input.query[p.name] ?? (p.default !== undefined ? String(p.default) : undefined);
    if (raw === undefined) {
      if (p.required) throw invalid(p.name, "is required");
      continue;
    }
    values[p.name] = coerceParameter(p, raw);
    if (p.type === "element") await requireElement(ctx, ws, p.name, values[p.name] as string, p.elementType);
  }
  const cypherParams: Record<string, unknown> = {};
  const bindings = panel.bindings ?? Object.fromEntries(def.parameters.map((p) => [p.name, p.name]));
  for (const [param, source] of Object.entries(bindings)) cypherParams[param] = values[source] ?? null;
  const query = parseReadQuery(panel.query);
  const result = await answerScoped(ctx, graph, ws, panel.query, query, cypherParams);
  return {
    dashboardId: row.id,
    revision: row.revision,
    panelInstanceId: panel.panelInstanceId,
    title: panel.title,
    visualization: panel.visualization,
    parameters: values,
    ...(panel.visualization === "core/metric" ? { value: result.rows[0]?.[0] ?? null } : {}),
    result,
  };
}

async function requireElement(ctx: RequestContext, ws: string, name: string, id: string, type?: string) {
  const rows = await ctx.database.rows<{ type: string }>(
    sql`select type from elements where workspace_id = ${ws} and id = ${id}`,
  );
  if (!rows[0]) throw invalid(name, `no element '${id}' in the active workspace`);
  if (type && rows[0].type !== type)
    throw invalid(name, `element '${id}' is ${withArticle(rows[0].type)}, not ${withArticle(type)}`);
}

/**
 * Every panel of a dashboard (or one), run with the same parameter checks and scoping as the panel route: the
 * values are checked against the dashboard's parameters once per panel, queries run one after the other (each
 * takes one of the caller's query slots).
 */
export async function runDashboard({
  ctx,
  input,
  graph,
}: Verb<{ dashboardId: string; parameters: Record<string, string | number | boolean>; panelId?: string }> & {
  graph: GraphDeps;
}): Promise<z.infer<typeof DashboardRun>> {
  requireCapability(ctx, "model:read");
  const row = await getRow(ctx.database, requireOrganization(ctx), input.dashboardId);
  const panels = input.panelId
    ? row.definition.panels.filter((p) => p.panelInstanceId === input.panelId)
    : row.definition.panels;
  if (input.panelId && panels.length === 0) throw notFound("Panel", input.panelId);
  const query = Object.fromEntries(Object.entries(input.parameters).map(([k, v]) => [k, String(v)]));
  const results = [];
  for (const panel of panels) {
    results.push(
      await runPanel({ ctx, graph, input: { dashboardId: row.id, panelInstanceId: panel.panelInstanceId, query } }),
    );
  }
  return { dashboardId: row.id, revision: row.revision, title: row.definition.title, panels: results };
}
