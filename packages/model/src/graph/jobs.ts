import { type Database, type DbOrTx, type GraphCounts, sql } from "@ams/db";
import { mustExist } from "@ams/shared";

export type JobState = "queued" | "running" | "succeeded" | "failed";

export type GraphJobRow = {
  id: string;
  workspace_id: string;
  state: JobState;
  attempts: number;
  generation: number | null;
  counts: GraphCounts | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
};

const COLUMNS = sql`id, workspace_id, state, attempts, generation, counts, error, created_at, started_at, finished_at`;

export async function insertJob(
  database: Database,
  workspaceId: string,
  requestedBy: string | null,
): Promise<GraphJobRow> {
  const [row] = await database.rows<GraphJobRow>(
    sql`insert into graph_jobs (workspace_id, requested_by) values (${workspaceId}, ${requestedBy}) returning ${COLUMNS}`,
  );
  return mustExist(row, "the inserted graph job");
}

export async function getJob(
  database: Database,
  workspaceId: string,
  jobId: string,
  on?: DbOrTx,
): Promise<GraphJobRow | undefined> {
  const [row] = await database.rows<GraphJobRow>(
    sql`select ${COLUMNS} from graph_jobs where id = ${jobId} and workspace_id = ${workspaceId}`,
    on,
  );
  return row;
}

/**
 * Takes a delivered job for this worker: queued, or running with a heartbeat older than `staleMs` (its worker died).
 * Refuses while another job of the same workspace is running with a fresh heartbeat, so two workers never write
 * the same workspace's graph at once. Returns the row, "busy", or "gone" (finished, deleted, unknown).
 */
export async function claimJob(
  database: Database,
  jobId: string,
  staleMs: number,
): Promise<GraphJobRow | "busy" | "gone"> {
  const rows = await database.rows<GraphJobRow>(
    sql`update graph_jobs j set state = 'running', attempts = attempts + 1, started_at = now(), heartbeat_at = now(), error = null
        where j.id = ${jobId}
          and (j.state = 'queued' or (j.state = 'running' and j.heartbeat_at < now() - make_interval(secs => ${staleMs / 1000})))
          and not exists (select 1 from graph_jobs o where o.workspace_id = j.workspace_id and o.id <> j.id and o.state = 'running'
                          and o.heartbeat_at >= now() - make_interval(secs => ${staleMs / 1000}))
        returning ${COLUMNS}`,
  );
  if (rows[0]) return rows[0];
  const [current] = await database.rows<{ state: JobState; stale: boolean }>(
    sql`select state, heartbeat_at < now() - make_interval(secs => ${staleMs / 1000}) as stale from graph_jobs where id = ${jobId}`,
  );
  if (!current || current.state === "succeeded" || current.state === "failed") return "gone";
  return "busy";
}

export async function heartbeatJob(database: Database, jobId: string): Promise<void> {
  await database.rows(sql`update graph_jobs set heartbeat_at = now() where id = ${jobId} and state = 'running'`);
}

/**
 * Puts a job this process claimed back to queued when the process stops under it (the in-process queue, which
 * forgets its jobs at exit): only while the row is still this claim's (running, same attempt), so a job that
 * finished meanwhile or was taken over elsewhere is left alone. It runs again at the next start (unfinishedJobs).
 */
export async function releaseJob(
  database: Database,
  jobId: string,
  attempts: number,
  reason: string,
): Promise<boolean> {
  const rows = await database.rows<{ id: string }>(
    sql`update graph_jobs set state = 'queued', error = ${reason}, heartbeat_at = null
        where id = ${jobId} and state = 'running' and attempts = ${attempts} returning id`,
  );
  return rows.length > 0;
}

/**
 * The jobs an in-process queue takes up at its start, oldest first: queued ones (requested, or released at a stop,
 * before the previous process ran them) and running ones (the previous process died under them). A running one is
 * claimed only once its heartbeat is stale (claimJob), so a job another live process is running is never taken.
 */
export async function unfinishedJobs(database: Database): Promise<{ id: string; workspace_id: string }[]> {
  return database.rows<{ id: string; workspace_id: string }>(
    sql`select id, workspace_id from graph_jobs where state in ('queued', 'running') order by created_at`,
  );
}

export async function finishJob(
  database: Database,
  jobId: string,
  outcome:
    | { state: "succeeded"; generation: number; counts: GraphCounts }
    | { state: "failed" | "queued"; error: string },
): Promise<void> {
  if (outcome.state === "succeeded") {
    await database.rows(
      sql`update graph_jobs set state = 'succeeded', generation = ${outcome.generation}, counts = ${JSON.stringify(outcome.counts)}::jsonb,
            error = null, finished_at = now() where id = ${jobId}`,
    );
  } else {
    await database.rows(
      sql`update graph_jobs set state = ${outcome.state}, error = ${outcome.error},
            finished_at = case when ${outcome.state} = 'failed' then now() else null end where id = ${jobId}`,
    );
  }
}

/** The job as the API shows it. */
export function toJobView(row: GraphJobRow) {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    state: row.state,
    attempts: row.attempts,
    generation: row.generation,
    counts: row.counts,
    error: row.error,
    created_at: new Date(row.created_at).toISOString(),
    started_at: row.started_at ? new Date(row.started_at).toISOString() : null,
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
    status_url: `/api/export/neo4j/jobs/${row.id}`,
  };
}

/** Rebuild jobs waiting to run and the age of the oldest (seconds, 0 when none): the queue lag metric. */
export async function queuedJobStats(database: Database): Promise<{ queued: number; oldestSeconds: number }> {
  const [row] = await database.rows<{ queued: number; oldest: number | null }>(
    sql`select count(*)::int as queued, extract(epoch from now() - min(created_at))::float8 as oldest
        from graph_jobs where state = 'queued'`,
  );
  return { queued: row?.queued ?? 0, oldestSeconds: Math.max(0, row?.oldest ?? 0) };
}
