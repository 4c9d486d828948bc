import type { Database, DbOrTx, Tx } from "@ams/db";
import { AppError, type Via } from "@ams/shared";
import { sql } from "drizzle-orm";
import { type RequestContext, requireWorkspace } from "../context.ts";
import type { ChangeResult } from "./schemas.ts";

/** Who makes a change and how it came: recorded on its change group. */
export type ChangeActor = { id: string | null; name: string | null; via: Via; requestId: string | null };

/**
 * The change group a transaction records into. `summary` is the group's one line; a verb may refine it once it
 * knows more (the name of what it deleted), until the group closes.
 */
export type OpenChange = { workspaceId: string; revision: number; summary: string };

/**
 * What a group did once closed: the workspace's revision after it (the one before when it changed nothing and gave
 * its number back; exact, as the group holds the workspace's row lock until commit) and how many objects it touched.
 */
export type ClosedChange = { revision: number; summary: string; objects: number };

export type ChangeOptions = {
  /** One line saying what the change does ("Renamed element 'CRM'"). */
  summary: string;
  /** The way in, when the verb names its own (an import); else the caller's (ctx.via), else the system. */
  via?: Via;
};

const SYSTEM: Via = { kind: "system", name: null };

/** The system as actor: seed, demo model, background work. */
export const SYSTEM_ACTOR: ChangeActor = { id: null, name: null, via: SYSTEM, requestId: null };

/** The way in of an import: `import`, named after the caller's API token or MCP client when there is one. */
export const importVia = (ctx: RequestContext): Via => ({ kind: "import", name: ctx.via?.name ?? null });

/** The actor of the caller's changes: the user, their name, the way in and the request id. */
export function actorOf(ctx: RequestContext, via?: Via): ChangeActor {
  return {
    id: ctx.userId || null,
    name: ctx.actorName ?? (ctx.username || null),
    via: via ?? ctx.via ?? SYSTEM,
    requestId: ctx.requestId ?? null,
  };
}

/**
 * Runs `fn` in a transaction that records everything it changes in the active workspace as one change group (one
 * user action: one group, a cascading delete included). The workspace's next revision is taken under its row lock
 * (`update ... returning`), so revisions are gapless and commit in order; a rollback gives the number back.
 * The capture triggers (migration 0018) write the entries; a write outside a group is refused by the database.
 */
export async function withChange<T>(
  ctx: RequestContext,
  options: ChangeOptions,
  fn: (tx: Tx, change: OpenChange) => Promise<T>,
): Promise<T> {
  return (await withClosedChange(ctx, options, fn)).out;
}

/** withChange that also answers the closed group: the revision the workspace is at after it, for the verb's answer. */
export async function withClosedChange<T>(
  ctx: RequestContext,
  options: ChangeOptions,
  fn: (tx: Tx, change: OpenChange) => Promise<T>,
): Promise<{ out: T; closed: ClosedChange }> {
  const ws = requireWorkspace(ctx);
  let closing: Promise<ClosedChange> | undefined;
  const out = await ctx.database.db.transaction(async (tx) => {
    const change = await openChange(ctx.database, tx, ws, options.summary);
    const result = await fn(tx, change);
    // Not awaited here: the group's closing statement and the COMMIT that follows as soon as this returns go out
    // together on the transaction's connection (pipelined, one round trip instead of two). Should it fail, the
    // transaction is aborted, so PostgreSQL answers the COMMIT with a rollback, and its error is thrown below.
    closing = closeChange(ctx.database, tx, change, actorOf(ctx, options.via));
    closing.catch(() => {});
    return result;
  });
  if (!closing) throw new AppError("INTERNAL", "The change group was not closed");
  return { out, closed: await closing };
}

/**
 * withChange answering the group itself (what a delete answers): the workspace's revision after it, its summary
 * and how many objects it touched, a cascade included.
 */
export async function withChangeResult(
  ctx: RequestContext,
  options: ChangeOptions,
  fn: (tx: Tx, change: OpenChange) => Promise<void>,
): Promise<ChangeResult> {
  return (await withClosedChange(ctx, options, fn)).closed;
}

/** withChange inside a transaction the caller already runs (creating a workspace, then its content). */
export async function recordChange<T, X extends DbOrTx>(
  database: Database,
  tx: X,
  workspaceId: string,
  actor: ChangeActor,
  summary: string,
  fn: (tx: X, change: OpenChange) => Promise<T>,
): Promise<T> {
  return (await recordClosedChange(database, tx, workspaceId, actor, summary, fn)).out;
}

/** recordChange that also answers the closed group (its revision after closing, summary, objects). */
export async function recordClosedChange<T, X extends DbOrTx>(
  database: Database,
  tx: X,
  workspaceId: string,
  actor: ChangeActor,
  summary: string,
  fn: (tx: X, change: OpenChange) => Promise<T>,
): Promise<{ out: T; closed: ClosedChange }> {
  const change = await openChange(database, tx, workspaceId, summary);
  const out = await fn(tx, change);
  const closed = await closeChange(database, tx, change, actor);
  return { out, closed };
}

/** The group this transaction has open, if any (a verb that may be called inside another's change). */
export async function openChangeOf(
  database: Database,
  tx: DbOrTx,
): Promise<{ workspaceId: string; revision: number } | null> {
  const [row] = await database.rows<{ ws: string | null; rev: string | null }>(
    sql`select nullif(current_setting('ams.workspace', true), '') as ws,
          nullif(current_setting('ams.revision', true), '') as rev`,
    tx,
  );
  return row?.ws && row.rev ? { workspaceId: row.ws, revision: Number(row.rev) } : null;
}

async function openChange(database: Database, tx: DbOrTx, workspaceId: string, summary: string): Promise<OpenChange> {
  const [row] = await database.rows<{ revision: string | number }>(
    sql`with r as (
          update workspaces set revision = revision + 1, updated_at = now()
          where id = ${workspaceId} and coalesce(current_setting('ams.revision', true), '') = ''
            and read_only_reason is null
          returning revision)
        select revision, set_config('ams.revision', revision::text, true), set_config('ams.workspace', ${workspaceId}, true),
          set_config('ams.seq', '0', true)
        from r`,
    tx,
  );
  if (!row) {
    const open = await openChangeOf(database, tx);
    if (open)
      throw new AppError("INTERNAL", `A change group is already open in this transaction (${open.workspaceId})`);
    // A merged, discarded or closed draft: read-only, and the reason says why (read after the row's lock was
    // waited for, so a merge that committed meanwhile is seen).
    const [ro] = await database.rows<{ reason: string | null }>(
      sql`select read_only_reason as reason from workspaces where id = ${workspaceId}`,
      tx,
    );
    if (ro?.reason) throw new AppError("CONFLICT", ro.reason);
    throw new AppError("NOT_FOUND", `Workspace '${workspaceId}' not found`);
  }
  return { workspaceId, revision: Number(row.revision), summary };
}

/**
 * Writes the group's row (time, actor, way in, request id, summary, the objects a history page lists) and ends the group: a later write in this
 * transaction is refused. A group that changed nothing (an update to the same values) gives its revision back.
 */
async function closeChange(
  database: Database,
  tx: DbOrTx,
  change: OpenChange,
  actor: ChangeActor,
): Promise<ClosedChange> {
  const [row] = await database.rows<{ objects: string | number }>(
    sql`with c as (select coalesce(nullif(current_setting('ams.seq', true), ''), '0')::int as n),
        g as (
          insert into change_groups (workspace_id, revision, actor_id, actor_name, via_kind, via_name, request_id, summary,
            entry_count, kinds, objects)
          select ${change.workspaceId}, ${change.revision}, ${actor.id}, ${actor.name}, ${actor.via.kind},
            ${actor.via.name}, ${actor.requestId}, ${change.summary.slice(0, 500)}, c.n,
            array(select distinct e.kind from change_entries e
                  where e.workspace_id = ${change.workspaceId} and e.revision = ${change.revision} order by e.kind),
            ams_change_group_objects(${change.workspaceId}, ${change.revision})
          from c where c.n > 0
          returning 1),
        u as (
          update workspaces set revision = revision - 1
          where id = ${change.workspaceId} and revision = ${change.revision} and (select n from c) = 0
          returning 1)
        select (select count(*) from g) as grouped, (select count(*) from u) as returned, (select n from c) as objects,
          set_config('ams.revision', '', true), set_config('ams.workspace', '', true)`,
    tx,
  );
  const objects = Number(row?.objects ?? 0);
  return {
    revision: objects === 0 ? change.revision - 1 : change.revision,
    summary: change.summary.slice(0, 500),
    objects,
  };
}
