import type { Database, DbOrTx } from "@ams/db";
import { notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import type { RequestContext } from "../context.ts";
import type { Workspace } from "./schemas.ts";

export type WorkspaceRow = {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  created_at: Date | string;
  updated_at: Date | string;
};

export const workspaceColumns = sql`id, organization_id, name, description, created_at, updated_at`;

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

export const toWorkspace = (row: WorkspaceRow, activeId: string | null): Workspace => ({
  id: row.id,
  organization_id: row.organization_id,
  name: row.name,
  description: row.description,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
  active: row.id === activeId,
});

/**
 * The condition "the caller sees this workspace" over `workspaces`: one without teams is the organization's; one
 * assigned to teams is visible to those teams' members and to owners, admins and platform admins only.
 */
export function visibleWorkspace(ctx: Pick<RequestContext, "role" | "platformAdmin" | "teamIds">) {
  if (ctx.platformAdmin || ctx.role === "owner" || ctx.role === "admin") return sql`true`;
  const teams = ctx.teamIds ?? [];
  return sql`(not exists (select 1 from workspace_teams wt where wt.workspace_id = workspaces.id)
    or exists (select 1 from workspace_teams wt where wt.workspace_id = workspaces.id
      and wt.team_id::text = any(${`{${teams.join(",")}}`}::text[])))`;
}

/** The workspace if it belongs to the organization and the caller sees it; NOT_FOUND otherwise (missing, elsewhere or hidden). */
export async function getWorkspaceRow(ctx: RequestContext, organizationId: string, id: string, on?: DbOrTx) {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const [row] = uuid
    ? await ctx.database.rows<WorkspaceRow>(
        sql`select ${workspaceColumns} from workspaces
            where id = ${id} and organization_id = ${organizationId} and ${visibleWorkspace(ctx)}`,
        on,
      )
    : [];
  if (!row) throw notFound("Workspace", id);
  return row;
}

export async function selectWorkspace(
  database: Database,
  userId: string,
  organizationId: string,
  workspaceId: string | null,
  on?: DbOrTx,
) {
  await database.rows(
    sql`insert into user_selections (user_id, organization_id, workspace_id, updated_at)
        values (${userId}, ${organizationId}, ${workspaceId}, now())
        on conflict (user_id) do update set organization_id = excluded.organization_id,
          workspace_id = excluded.workspace_id, updated_at = now()`,
    on,
  );
}

/**
 * 404 unless the caller's API token reaches workspace `id`: a token pinned to one workspace reaches it and its drafts
 * (a draft the token forked, or an assistant's proposal of that workspace, is where it works), nothing else; an
 * unpinned caller reaches what the organization shows them (getWorkspaceRow checks that).
 */
export async function assertPinReaches(ctx: RequestContext, id: string, on?: DbOrTx): Promise<void> {
  const pinned = ctx.pinnedWorkspaceId;
  if (!pinned || id === pinned) return;
  const [draft] = UUID.test(id)
    ? await ctx.database.rows(
        sql`select 1 from drafts where workspace_id = ${id} and base_workspace_id = ${pinned}`,
        on,
      )
    : [];
  if (!draft) throw notFound("Workspace", id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
