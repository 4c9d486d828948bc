import type { Database } from "@ams/db";
import { sql } from "drizzle-orm";

const DAY_MS = 24 * 3600 * 1000;

/** What one workspace's compaction did: the revision it compacted through and how many entries lost their detail. */
export type WorkspaceCompaction = { workspaceId: string; through: number; compacted: number };

/**
 * Retention of the change log (HISTORY_RETENTION_DAYS). The log reconstructs a past state backwards from the
 * current model: an object's state at revision R is the `before` of its first entry after R (states.ts). So the
 * detail a version needs is, per object, only that one entry after the version's revision, and the current model
 * is the base every reconstruction starts from (no snapshot to fold, no copy of the model).
 *
 * Compaction drops the field-level detail (`before`, `after`) of the entries of the groups older than the
 * retention, except the entries some version needs: an entry is kept when a version names a revision in
 * [the revision of the object's previous entry, the entry's own revision). The groups stay whole (who, when, way
 * in, summary, counts) and so do the entries' identities (kind, object, operation), so an element's history still
 * lists who changed it and when. `workspaces.history_compacted_through` records the last compacted revision: a
 * state at a revision below it is reconstructed only where a version names it (points.ts), and a group at or
 * below it is not reverted (revert.ts).
 *
 * Idempotent (a second run finds nothing older than the retention beyond the mark) and safe beside other
 * compactions (one per workspace at a time, by advisory lock) and beside writers: it touches only entries at or
 * below a revision already committed, and moves the mark last, under the workspace row's lock, so a change group
 * (which holds that lock from its start) sees either the whole compaction or none of it.
 */
export async function compactWorkspaceHistory(
  database: Database,
  workspaceId: string,
  retentionDays: number,
  now: Date,
): Promise<WorkspaceCompaction | null> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  return database.db.transaction(async (tx) => {
    await database.rows(
      sql`select pg_advisory_xact_lock(hashtextextended(${`ams.history.compact:${workspaceId}`}, 0))`,
      tx,
    );
    const [target] = await database.rows<{ through: string | number | null; done: string | number }>(
      sql`select w.history_compacted_through as done,
            (select max(g.revision) from change_groups g
             where g.workspace_id = w.id and g.revision > w.history_compacted_through and g.created_at < ${cutoff.toISOString()}::timestamptz) as through
          from workspaces w where w.id = ${workspaceId}`,
      tx,
    );
    if (!target || target.through === null) return null;
    const through = Number(target.through);
    // Every entry at or below the mark is looked at, not only the new range: a version deleted since the last run
    // releases the detail it kept. An entry kept gets its `after` written out (entries store only `before` since
    // migration 0031, and the `before` its `after` derives from may be dropped here); readers take the stored one at
    // or below the mark. The function sees the log as it was before this statement (one snapshot).
    const dropped = await database.rows<{ n: string | number }>(
      sql`with x as (
            select revision, seq, op, before is not null or after is not null as detailed,
              lag(revision, 1, 0::bigint) over (partition by kind, object_id order by revision, seq) as prev
            from change_entries where workspace_id = ${workspaceId} and revision <= ${through}),
          k as (
            select x.*,
              exists (select 1 from workspace_versions v
                      where v.workspace_id = ${workspaceId} and v.revision >= x.prev and v.revision < x.revision)
              -- An open draft's merge reads its base's entries after the fork and its own whole log.
              or exists (select 1 from drafts dr where dr.state in ('open', 'submitted')
                         and (dr.workspace_id = ${workspaceId}
                           or (dr.base_workspace_id = ${workspaceId} and dr.base_revision < x.revision))) as keep
            from x),
          d as (
            update change_entries e
            set before = case when k.keep then e.before end,
              after = case when k.keep
                then ams_entry_after(e.workspace_id, e.revision, e.seq, e.kind, e.object_id, e.op, e.after, true) end
            from k
            where e.workspace_id = ${workspaceId} and e.revision = k.revision and e.seq = k.seq
              and ((k.detailed and not k.keep)
                or (k.keep and e.after is null and e.op <> 'delete' and e.revision > ${Number(target.done)}))
            returning k.keep)
          -- Lost their detail: those emptied here, and the creates newly below the mark (their state after, read
          -- from the log until now, is no longer answered).
          select (select count(*) from d where not d.keep)
            + (select count(*) from k where not k.keep and not k.detailed and k.op = 'create'
                 and k.revision > ${Number(target.done)}) as n`,
      tx,
    );
    await database.rows(
      sql`update workspaces set history_compacted_through = greatest(history_compacted_through, ${through})
          where id = ${workspaceId}`,
      tx,
    );
    return { workspaceId, through, compacted: Number(dropped[0]?.n ?? 0) };
  });
}

/** The workspaces with change groups older than the retention beyond their mark: those a run compacts. */
async function workspacesToCompact(database: Database, cutoff: Date): Promise<string[]> {
  const rows = await database.rows<{ id: string }>(
    sql`select w.id from workspaces w
        where exists (select 1 from change_groups g
                      where g.workspace_id = w.id and g.revision > w.history_compacted_through and g.created_at < ${cutoff.toISOString()}::timestamptz)
        order by w.id`,
  );
  return rows.map((r) => r.id);
}

/**
 * One retention run over every workspace, each in its own transaction (a workspace's compaction holds no lock on
 * another's). Answers what was compacted.
 */
export async function compactHistory(
  database: Database,
  retentionDays: number,
  now: Date,
): Promise<WorkspaceCompaction[]> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const out: WorkspaceCompaction[] = [];
  // Drafts merged, discarded or closed (their base deleted) longer ago than the retention go, with their history.
  await database.rows(
    sql`delete from workspaces where id in (select workspace_id from drafts
          where state in ('merged', 'discarded', 'closed') and closed_at < ${cutoff.toISOString()}::timestamptz)`,
  );
  for (const id of await workspacesToCompact(database, cutoff)) {
    const done = await compactWorkspaceHistory(database, id, retentionDays, now);
    if (done) out.push(done);
  }
  return out;
}
