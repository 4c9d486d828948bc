import type { Database, DbOrTx } from "@ams/db";
import { notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
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

/** The workspace if it belongs to the organization; NOT_FOUND otherwise, whether missing or elsewhere. */
export async function getWorkspaceRow(database: Database, organizationId: string, id: string, on?: DbOrTx) {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const [row] = uuid
    ? await database.rows<WorkspaceRow>(
        sql`select ${workspaceColumns} from workspaces where id = ${id} and organization_id = ${organizationId}`,
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
