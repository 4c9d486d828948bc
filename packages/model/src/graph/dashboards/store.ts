import { randomUUID } from "node:crypto";
import { type Database, type DbOrTx, sql } from "@ams/db";
import { AppError, notFound } from "@ams/shared";
import { LIST_DOCUMENTATION_CAP, type ListPage, type ListWindow, readWindow } from "../../list-shape.ts";
import type { DashboardDefinition, DashboardParameter, Panel } from "./definition.ts";

export type DashboardRow = {
  id: string;
  organization_id: string | null;
  is_provisioned: boolean;
  latest_revision: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  revision: number;
  definition: DashboardDefinition;
};

const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

/** The API shape: the definition flattened beside its id, revision and timestamps. */
export function toDashboard(row: DashboardRow, admin = false) {
  return {
    dashboardId: row.id,
    revision: row.revision,
    latestRevision: row.latest_revision,
    ...row.definition,
    isProvisioned: row.is_provisioned,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    ...(admin ? { deleted: row.deleted_at !== null, deleted_at: iso(row.deleted_at) } : {}),
  };
}

const SELECT = sql`select d.id, d.organization_id, d.is_provisioned, d.latest_revision, d.created_at, d.updated_at, d.deleted_at,
  r.revision, r.definition from dashboards d join dashboard_revisions r on r.dashboard_id = d.id`;

/**
 * Dashboards visible to an organization (its own and the provisioned ones), at their latest revision; with a window,
 * only those rows leave the database (LIMIT/OFFSET after the list's order).
 */
export async function listRows(
  database: Database,
  orgId: string,
  includeDeleted: boolean,
  window?: Partial<ListWindow>,
): Promise<DashboardRow[]> {
  const limit = window?.limit === undefined ? sql`` : sql`limit ${window.limit}`;
  const offset = window?.offset ? sql`offset ${window.offset}` : sql``;
  return database.rows<DashboardRow>(
    sql`${SELECT} and r.revision = d.latest_revision
        where (d.organization_id = ${orgId} or d.organization_id is null) ${includeDeleted ? sql`` : sql`and d.deleted_at is null`}
        order by d.is_provisioned desc, r.definition->>'title', d.id ${limit} ${offset}`,
  );
}

/** A dashboard as a list shows it: its summary columns, and its parameters and panels only when asked. */
export type DashboardListRow = {
  id: string;
  is_provisioned: boolean;
  revision: number;
  updated_at: string;
  title: string;
  description: string | null;
  description_cut: boolean;
  panel_count: number;
  parameters: DashboardParameter[] | null;
  panels: Panel[] | null;
};

/**
 * One window of the dashboards visible to an organization, in the list's order (provisioned first, then by title),
 * read in the database beside their count. The summary columns are computed there (the description already cut at
 * LIST_DOCUMENTATION_CAP, the panel count), so a dashboard's panels (up to a megabyte of Cypher) leave the database
 * only when `include` asks for them.
 */
export async function pageRows(
  database: Database,
  orgId: string,
  window: ListWindow,
  include: { parameters: boolean; panels: boolean },
): Promise<ListPage<DashboardListRow>> {
  const visible = sql`(d.organization_id = ${orgId} or d.organization_id is null) and d.deleted_at is null`;
  return readWindow<DashboardListRow>(
    database,
    sql`select d.id, d.is_provisioned, r.revision, d.updated_at, r.definition->>'title' as title,
          left(r.definition->>'description', ${LIST_DOCUMENTATION_CAP}) as description,
          coalesce(length(r.definition->>'description') > ${LIST_DOCUMENTATION_CAP}, false) as description_cut,
          coalesce(jsonb_array_length(r.definition->'panels'), 0)::int as panel_count,
          ${include.parameters ? sql`coalesce(r.definition->'parameters', '[]'::jsonb)` : sql`null::jsonb`} as parameters,
          ${include.panels ? sql`coalesce(r.definition->'panels', '[]'::jsonb)` : sql`null::jsonb`} as panels
        from dashboards d join dashboard_revisions r on r.dashboard_id = d.id and r.revision = d.latest_revision
        where ${visible}
        order by d.is_provisioned desc, r.definition->>'title', d.id`,
    sql`select count(*)::int as n from dashboards d where ${visible}`,
    window,
  );
}

/** One dashboard of the organization (or provisioned) at a revision (default latest); deleted ones are not found. */
export async function getRow(
  database: Database,
  orgId: string,
  id: string,
  revision?: number,
  on?: DbOrTx,
): Promise<DashboardRow> {
  const [row] = await database.rows<DashboardRow>(
    sql`${SELECT} and r.revision = ${revision ?? sql`d.latest_revision`}
        where d.id = ${id} and (d.organization_id = ${orgId} or d.organization_id is null) and d.deleted_at is null`,
    on,
  );
  if (!row) throw notFound(revision ? `Revision ${revision} of dashboard` : "Dashboard", id);
  return row;
}

export async function insertDashboard(
  database: Database,
  orgId: string | null,
  def: DashboardDefinition,
  userId: string | null,
  id: string = randomUUID(),
) {
  await database.db.transaction(async (tx) => {
    await database.rows(
      sql`insert into dashboards (id, organization_id, is_provisioned, latest_revision, created_by) values (${id}, ${orgId}, ${orgId === null}, 1, ${userId})`,
      tx,
    );
    await database.rows(
      sql`insert into dashboard_revisions (dashboard_id, revision, definition, created_by) values (${id}, 1, ${JSON.stringify(def)}::jsonb, ${userId})`,
      tx,
    );
  });
  return id;
}

/** Appends revision n+1; `orgId` null addresses a provisioned dashboard (only the provisioning does that). */
export async function appendRevision(
  database: Database,
  orgId: string | null,
  id: string,
  def: DashboardDefinition,
  userId: string | null,
) {
  return database.db.transaction(async (tx) => {
    const [row] = await database.rows<{ latest_revision: number }>(
      sql`update dashboards set latest_revision = latest_revision + 1, updated_at = now()
          where id = ${id} and deleted_at is null and ${orgId === null ? sql`organization_id is null` : sql`organization_id = ${orgId}`}
          returning latest_revision`,
      tx,
    );
    if (!row) throw notFound("Dashboard", id);
    await database.rows(
      sql`insert into dashboard_revisions (dashboard_id, revision, definition, created_by)
          values (${id}, ${row.latest_revision}, ${JSON.stringify(def)}::jsonb, ${userId})`,
      tx,
    );
    return row.latest_revision;
  });
}

export async function softDelete(database: Database, orgId: string, id: string): Promise<void> {
  const rows = await database.rows(
    sql`update dashboards set deleted_at = now(), updated_at = now() where id = ${id} and organization_id = ${orgId} and deleted_at is null returning id`,
  );
  if (rows.length === 0) throw notFound("Dashboard", id);
}

/** Brings a soft-deleted dashboard of the organization back into the list, with all its revisions. */
export async function undelete(database: Database, orgId: string, id: string): Promise<void> {
  const rows = await database.rows(
    sql`update dashboards set deleted_at = null, updated_at = now() where id = ${id} and organization_id = ${orgId} and deleted_at is not null returning id`,
  );
  if (rows.length === 0) throw notFound("Deleted dashboard", id);
}

/** Provisioned dashboards are managed by their files: the API refuses to change them. */
export async function requireEditable(database: Database, orgId: string, id: string): Promise<void> {
  const row = await getRow(database, orgId, id);
  if (row.is_provisioned)
    throw new AppError(
      "CONFLICT",
      `Dashboard '${id}' is provisioned from a file and cannot be changed through the API`,
    );
}
