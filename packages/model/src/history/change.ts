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
export type OpenChange = {
  workspaceId: string;
  /**
   * The group's revision. A promise: withChange sends the group's opening statement and the verb's first statement
   * together (pipelined, one round trip), so the number is known only once the opening has been answered.
   */
  revision: Promise<number>;
  summary: string;
};

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

/** withChange's opening was refused: the transaction rolled back, and `refusal` says why. */
const REFUSED = Symbol("change group refused");

/** withChange that also answers the closed group: the revision the workspace is at after it, for the verb's answer. */
export async function withClosedChange<T>(
  ctx: RequestContext,
  options: ChangeOptions,
  fn: (tx: Tx, change: OpenChange) => Promise<T>,
): Promise<{ out: T; closed: ClosedChange }> {
  const ws = requireWorkspace(ctx);
  let closing: Promise<ClosedChange> | undefined;
  let out: T;
  try {
    out = await ctx.database.db.transaction(async (tx) => {
      // Not awaited before `fn` runs: the opening statement and the verb's first statement go out together on the
      // transaction's connection (pipelined), and PostgreSQL runs them in that order, so the verb's statements run
      // under the workspace row's lock and with the group open, as if the opening had been awaited. Should the
      // opening be refused (no such workspace, a read-only draft), the group is not open: a write of content is
      // refused by the capture triggers, and whatever `fn` did or answered, the transaction rolls back (below).
      const opening = startChange(ctx.database, tx, ws);
      opening.catch(() => {});
      // On PGlite too: its statements run in the order sent, on the database's own thread (pglite-thread.ts).
      const revision = opening.then((r) => r ?? Promise.reject(REFUSED));
      revision.catch(() => {});
      const change: OpenChange = { workspaceId: ws, revision, summary: options.summary };
      let result: T;
      try {
        result = await fn(tx, change);
      } catch (error) {
        // A refused opening is the error the caller gets, not the one `fn` met for it (a write refused, a row gone).
        await revision;
        throw error;
      }
      // Not awaited here: the group's closing statement and the COMMIT that follows as soon as this returns go out
      // together on the transaction's connection (pipelined, one round trip instead of two). Should it fail, the
      // transaction is aborted, so PostgreSQL answers the COMMIT with a rollback, and its error is thrown below.
      closing = closeChange(ctx.database, tx, { ...change, revision: await revision }, actorOf(ctx, options.via));
      closing.catch(() => {});
      return result;
    });
  } catch (error) {
    if (error === REFUSED) throw await refusal(ctx.database, ws);
    throw error;
  }
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
  const opened = await openChange(database, tx, workspaceId, summary);
  const change: OpenChange = { ...opened, revision: Promise.resolve(opened.revision) };
  const out = await fn(tx, change);
  const closed = await closeChange(database, tx, { ...change, revision: opened.revision }, actor);
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

/**
 * Sends the statement that opens a change group in `workspaceId`: the workspace's next revision, taken under its row
 * lock, or null when refused (no such workspace, a read-only one, a group already open in this transaction).
 */
async function startChange(database: Database, tx: DbOrTx, workspaceId: string): Promise<number | null> {
  const [row] = await database.rows<{ revision: string | number }>(
    sql`with r as (
          update workspaces set revision = revision + 1, updated_at = now()
          where id = ${workspaceId} and coalesce(current_setting('ams.revision', true), '') = ''
            and read_only_reason is null
          returning revision)
        select revision, set_config('ams.revision', revision::text, true), set_config('ams.workspace', ${workspaceId}, true),
          set_config('ams.seq', '0', true), set_config('ams.objects', '', true)
        from r`,
    tx,
  );
  return row ? Number(row.revision) : null;
}

/**
 * The error of a refused opening: read in a fresh statement once withChange's transaction rolled back, or on the
 * caller's transaction (`on`) after its opening waited for the row's lock.
 */
async function refusal(database: Database, workspaceId: string, on?: DbOrTx): Promise<AppError> {
  // A merged, discarded or closed draft: read-only, and the reason says why (read after the opening waited for the
  // row's lock, so a merge that committed meanwhile is seen).
  const [ro] = await database.rows<{ reason: string | null }>(
    sql`select read_only_reason as reason from workspaces where id = ${workspaceId}`,
    on,
  );
  if (ro?.reason) return new AppError("CONFLICT", ro.reason);
  return new AppError("NOT_FOUND", `Workspace '${workspaceId}' not found`);
}

/** Opens a change group in a transaction the caller runs, awaited: the group is open when this resolves. */
async function openChange(
  database: Database,
  tx: DbOrTx,
  workspaceId: string,
  summary: string,
): Promise<{ workspaceId: string; revision: number; summary: string }> {
  const revision = await startChange(database, tx, workspaceId);
  if (revision === null) {
    const open = await openChangeOf(database, tx);
    if (open)
      throw new AppError("INTERNAL", `A change group is already open in this transaction (${open.workspaceId})`);
    throw await refusal(database, workspaceId, tx);
  }
  return { workspaceId, revision, summary };
}

/**
 * Writes the group's row (time, actor, way in, request id, summary, the objects a history page lists) and ends the group: a later write in this
 * transaction is refused. A group that changed nothing (an update to the same values) gives its revision back.
 * One function (ams_close_change, migration 0032): the objects and kinds are those the row-level UPDATE capture
 * listed when it wrote every one of the group's first entries (a group of updates reads nothing back), else read
 * from the entries.
 */
async function closeChange(
  database: Database,
  tx: DbOrTx,
  change: { workspaceId: string; revision: number; summary: string },
  actor: ChangeActor,
): Promise<ClosedChange> {
  const [row] = await database.rows<{ objects: string | number }>(
    sql`select ams_close_change(${change.workspaceId}, ${change.revision}, ${actor.id}, ${actor.name}, ${actor.via.kind},
          ${actor.via.name}, ${actor.requestId}, ${change.summary.slice(0, 500)}) as objects`,
    tx,
  );
  const objects = Number(row?.objects ?? 0);
  return {
    revision: objects === 0 ? change.revision - 1 : change.revision,
    summary: change.summary.slice(0, 500),
    objects,
  };
}
