import type { Database, DbOrTx } from "@ams/db";
import { AppError, notFound } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireCapability, type Verb } from "../context.ts";
import { actorOf, recordChange } from "../history/change.ts";
import { ensureSystemDefinitions } from "../properties/definitions.ts";
import {
  assertPinReaches,
  getWorkspaceRow,
  selectWorkspace,
  toWorkspace,
  visibleWorkspace,
  type WorkspaceRow,
  workspaceColumns,
} from "./internal.ts";
import type {
  CreateWorkspaceInput,
  DeletedWorkspace,
  ModelInfo,
  SaveResult,
  UpdateWorkspaceInput,
  Workspace,
} from "./schemas.ts";

function requireOrganization(ctx: RequestContext): string {
  if (!ctx.organizationId) throw new AppError("FORBIDDEN", "You are not a member of any organization");
  return ctx.organizationId;
}

export async function listWorkspaces({ ctx }: Verb): Promise<Workspace[]> {
  requireCapability(ctx, "model:read");
  const org = requireOrganization(ctx);
  const pinned = ctx.pinnedWorkspaceId;
  const rows = await ctx.database.rows<WorkspaceRow>(
    sql`select ${workspaceColumns} from workspaces where organization_id = ${org} and ${visibleWorkspace(ctx)}
        and not exists (select 1 from drafts d where d.workspace_id = workspaces.id)
        ${pinned ? sql`and id = ${pinned}` : sql``} order by created_at, id`,
  );
  return rows.map((r) => toWorkspace(r, ctx.workspaceId));
}

/** Creates the workspace (with its system property definition) and makes it the caller's active one (unless activate: false). */
export async function createWorkspace({
  ctx,
  input,
}: Verb<Omit<CreateWorkspaceInput, "path"> & { activate?: boolean }>): Promise<Workspace> {
  const org = mayCreateWorkspace(ctx, input);
  const { database } = ctx;
  const activate = input.activate ?? true;
  return database.db.transaction(async (tx) => {
    const row = await insertWorkspace(database, tx, org, input);
    await recordChange(database, tx, row.id, actorOf(ctx), `Created workspace '${input.name}'`, (t) =>
      ensureSystemDefinitions(database, row.id, t),
    );
    if (activate) await selectWorkspace(database, ctx.userId, org, row.id, tx);
    return toWorkspace(row, activate ? row.id : ctx.workspaceId);
  });
}

/** The caller's organization, when the caller may create a workspace in it (the organization input must match). */
export function mayCreateWorkspace(ctx: RequestContext, input: { organization_id?: string }): string {
  requireCapability(ctx, "workspace:write");
  const org = requireOrganization(ctx);
  if (ctx.pinnedWorkspaceId) {
    throw new AppError("FORBIDDEN", "This API token is pinned to one workspace: it cannot create workspaces");
  }
  if (input.organization_id && input.organization_id !== org) {
    throw new AppError("NOT_FOUND", `Organization '${input.organization_id}' not found`);
  }
  return org;
}

/**
 * Inserts a workspace row inside the caller's transaction; its content (the system property definition, an imported
 * model) follows in a change group the caller opens (recordChange).
 */
export async function insertWorkspace(
  database: Database,
  tx: DbOrTx,
  org: string,
  input: { name: string; description?: string | null },
): Promise<WorkspaceRow> {
  const [row] = await database.rows<WorkspaceRow>(
    sql`insert into workspaces (organization_id, name, description, model)
        values (${org}, ${input.name}, ${input.description ?? null}, ${JSON.stringify({ name: input.name })}::jsonb)
        returning ${workspaceColumns}`,
    tx,
  );
  if (!row) throw new AppError("INTERNAL", "The workspace was not created");
  return row;
}

export async function updateWorkspace({ ctx, input }: Verb<UpdateWorkspaceInput & { id: string }>): Promise<Workspace> {
  requireCapability(ctx, "workspace:write");
  const org = requireOrganization(ctx);
  const cur = await getWorkspaceRow(ctx, org, input.id);
  const [row] = await ctx.database.rows<WorkspaceRow>(
    sql`update workspaces set name = ${input.name ?? cur.name},
          description = ${input.description === undefined ? cur.description : input.description}, updated_at = now()
        where id = ${input.id} and organization_id = ${org} returning ${workspaceColumns}`,
  );
  if (!row) throw notFound("Workspace", input.id);
  return toWorkspace(row, ctx.workspaceId);
}

/**
 * Deletes the workspace and its model; a caller whose active workspace it was moves to another of the organization.
 * Its open drafts are closed (read-only, kept for export until HISTORY_RETENTION_DAYS): the answer counts them.
 */
export async function deleteWorkspace({ ctx, input }: Verb<{ id: string }>): Promise<DeletedWorkspace> {
  requireCapability(ctx, "workspace:write");
  const org = requireOrganization(ctx);
  const { database } = ctx;
  let closed = 0;
  await database.db.transaction(async (tx) => {
    const [sel] = await database.rows<{ workspace_id: string | null }>(
      sql`select workspace_id from user_selections where user_id = ${ctx.userId}`,
      tx,
    );
    // Every other member whose active workspace this was moves to another workspace of the organization (or to
    // none), in the same transaction: nobody is left pointing at a workspace that no longer exists.
    await database.rows(
      sql`update user_selections set updated_at = now(), workspace_id = (
            select id from workspaces where organization_id = ${org} and id <> ${input.id} order by created_at, id limit 1)
          where workspace_id = ${input.id} and user_id <> ${ctx.userId}`,
      tx,
    );
    // Its drafts are closed, not deleted: kept read-only (for export) until HISTORY_RETENTION_DAYS removes them.
    const base = await getWorkspaceRow(ctx, org, input.id, tx);
    const closedDrafts = await database.rows<{ id: string }>(
      sql`update drafts set state = 'closed', closed_at = now(),
            closed_reason = ${`Its base workspace '${base.name}' was deleted`}
          where base_workspace_id = ${input.id} and state in ('open', 'submitted') returning workspace_id as id`,
      tx,
    );
    await database.rows(
      sql`update workspaces set read_only_reason = ${`Its base workspace '${base.name}' was deleted: the draft is read-only`}
          where id in (select workspace_id from drafts where base_workspace_id = ${input.id})
            and read_only_reason is null`,
      tx,
    );
    closed = closedDrafts.length;
    await database.rows(sql`delete from workspaces where id = ${input.id} and organization_id = ${org}`, tx);
    if (!sel || sel.workspace_id === input.id || sel.workspace_id === null) {
      const [next] = await database.rows<{ id: string }>(
        sql`select id from workspaces where organization_id = ${org} order by created_at, id limit 1`,
        tx,
      );
      await selectWorkspace(database, ctx.userId, org, next?.id ?? null, tx);
    }
  });
  return { closed_drafts: closed };
}

/** Makes the workspace (and its organization) the caller's active choice. */
export async function activateWorkspace({ ctx, input }: Verb<{ id: string }>): Promise<Workspace> {
  requireCapability(ctx, "model:read");
  const org = requireOrganization(ctx);
  await assertPinReaches(ctx, input.id);
  const row = await getWorkspaceRow(ctx, org, input.id);
  // A pinned token works in its one workspace, or in a draft of it it activates (kept on the token): activating never
  // moves its owner's interactive choice.
  if (ctx.pinnedWorkspaceId) {
    const draft = row.id === ctx.pinnedWorkspaceId ? null : row.id;
    await ctx.database.rows(
      sql`update api_tokens set active_draft_id = ${draft}::uuid where id = ${ctx.apiTokenId ?? null}::uuid
            and active_draft_id is distinct from ${draft}::uuid`,
    );
  } else await selectWorkspace(ctx.database, ctx.userId, org, row.id);
  return toWorkspace(row, row.id);
}

/** GET /api: the active workspace, its model metadata and counts. */
export async function getModelInfo({ ctx }: Verb): Promise<ModelInfo> {
  requireCapability(ctx, "model:read");
  const org = requireOrganization(ctx);
  if (!ctx.workspaceId) {
    return { workspace: null, organization_id: org, model: null, counts: null };
  }
  const [row] = await ctx.database.rows<WorkspaceRow & { model: Record<string, unknown> }>(
    sql`select ${workspaceColumns}, model from workspaces where id = ${ctx.workspaceId} and organization_id = ${org}`,
  );
  if (!row) throw new AppError("NOT_FOUND", `Workspace '${ctx.workspaceId}' not found`);
  const [counts] = await ctx.database.rows<Record<string, number>>(
    sql`select (select count(*)::int from elements where workspace_id = ${row.id}) as elements,
          (select count(*)::int from relationships where workspace_id = ${row.id}) as relationships,
          (select count(*)::int from views where workspace_id = ${row.id}) as views,
          (select count(*)::int from property_definitions where workspace_id = ${row.id}) as property_definitions`,
  );
  const [draft] = await ctx.database.rows<{
    base_workspace_id: string | null;
    base_name: string;
    base_revision: string | number;
    state: string;
  }>(
    sql`select d.base_workspace_id, coalesce(b.name, d.base_name) as base_name, d.base_revision, d.state
        from drafts d left join workspaces b on b.id = d.base_workspace_id where d.workspace_id = ${row.id}`,
  );
  const { model, ...ws } = row;
  return {
    workspace: toWorkspace(ws, row.id),
    organization_id: org,
    model: {
      identifier: (model.identifier as string | undefined) ?? null,
      name: (model.name as string | undefined) ?? row.name,
      documentation: (model.documentation as string | undefined) ?? null,
      version: (model.version as string | undefined) ?? null,
      metadata: (model.metadata as { entries?: unknown[] } | undefined)?.entries ?? [],
    },
    counts: counts ?? {},
    draft: draft ? { ...draft, base_revision: Number(draft.base_revision) } : null,
  };
}

/** POST /api/save: every write is already persisted; kept for clients of the older product. */
export async function saveModel({ ctx }: Verb): Promise<SaveResult> {
  requireCapability(ctx, "model:write");
  return { saved: true, message: "Changes are saved as they are made; nothing to do." };
}

/**
 * The context of a request on another workspace of the caller's organization, for one call: the user's active
 * choice stays as it is (an assistant working on several workspaces does not move the user's). The role is the
 * organization's, so it is unchanged; a token pinned to one workspace reaches its drafts and no other workspace
 * ("not found", as REST).
 */
export async function inWorkspace(ctx: RequestContext, workspaceId: string): Promise<RequestContext> {
  const org = requireOrganization(ctx);
  await assertPinReaches(ctx, workspaceId);
  const row = await getWorkspaceRow(ctx, org, workspaceId);
  return { ...ctx, workspaceId: row.id };
}
