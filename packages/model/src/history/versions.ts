import type { DbOrTx } from "@ams/db";
import { AppError } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { CreateVersionInput, Version } from "./schemas.ts";

type VersionRow = {
  id: string;
  name: string;
  description: string | null;
  revision: string | number;
  automatic: boolean;
  created_at: string | Date;
  created_by: string | null;
  created_by_name: string | null;
};

const toVersion = (r: VersionRow): Version => ({
  id: r.id,
  name: r.name,
  description: r.description,
  revision: Number(r.revision),
  automatic: r.automatic,
  created_at: new Date(r.created_at).toISOString(),
  created_by: { id: r.created_by, name: r.created_by_name },
});

const COLUMNS = sql`id, name, description, revision, automatic, created_at, created_by, created_by_name`;

/**
 * Names the workspace's current revision: one INSERT, whatever the model's size (the change log reconstructs the
 * state). Inside a change group (`on`, an import or restore) it names the revision before the group.
 */
export async function insertVersion(
  ctx: RequestContext,
  ws: string,
  input: CreateVersionInput & { automatic?: boolean; revision?: number },
  on?: DbOrTx,
): Promise<Version> {
  const revision =
    input.revision === undefined ? sql`(select revision from workspaces where id = ${ws})` : sql`${input.revision}`;
  const [row] = await ctx.database.rows<VersionRow>(
    sql`insert into workspace_versions (workspace_id, revision, name, description, automatic, created_by, created_by_name)
        select ${ws}, ${revision}, ${input.name}, ${input.description ?? null}, ${input.automatic ?? false},
          ${ctx.userId || null}, ${ctx.actorName ?? (ctx.username || null)}
        returning ${COLUMNS}`,
    on,
  );
  if (!row) throw new AppError("NOT_FOUND", `Workspace '${ws}' not found`);
  return toVersion(row);
}

export async function createVersion({ ctx, input }: Verb<CreateVersionInput>): Promise<Version> {
  requireCapability(ctx, "model:write");
  return insertVersion(ctx, requireWorkspace(ctx), input);
}

export async function listVersions({ ctx }: Verb): Promise<Version[]> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const rows = await ctx.database.rows<VersionRow>(
    sql`select ${COLUMNS} from workspace_versions where workspace_id = ${ws} order by revision desc, created_at desc`,
  );
  return rows.map(toVersion);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The workspace's version with this id; 404 for an unknown id or another workspace's version. */
export async function getVersion(ctx: RequestContext, ws: string, id: string, on?: DbOrTx): Promise<Version> {
  const rows = UUID.test(id)
    ? await ctx.database.rows<VersionRow>(
        sql`select ${COLUMNS} from workspace_versions where workspace_id = ${ws} and id = ${id}`,
        on,
      )
    : [];
  if (!rows[0]) throw new AppError("NOT_FOUND", `Version '${id}' not found in this workspace`);
  return toVersion(rows[0]);
}

/** Deletes a version (owners, and admins of the session profile, who act as owners): the history it named stays. */
export async function deleteVersion({ ctx, input }: Verb<{ versionId: string }>): Promise<void> {
  requireCapability(ctx, "model:write");
  if (ctx.role !== "owner" && ctx.role !== "admin") {
    throw new AppError("FORBIDDEN", "Only an owner of the organization deletes versions");
  }
  const ws = requireWorkspace(ctx);
  await getVersion(ctx, ws, input.versionId);
  await ctx.database.rows(sql`delete from workspace_versions where workspace_id = ${ws} and id = ${input.versionId}`);
}

export const isVersionId = (ref: string) => UUID.test(ref);
