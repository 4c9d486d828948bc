import type { Database, StopListening } from "@ams/db";
import { sql } from "drizzle-orm";

/** The NOTIFY channel migration 0021's trigger announces each committed change group on ('<workspace>:<revision>'). */
export const CHANGE_CHANNEL = "change_groups";
/** While the announcements are not arriving, the log is polled this often (the 5 s bound of a lost subscription). */
export const POLL_MS = 1_000;
/** How far back a poll looks for workspaces whose revision moved (their updated_at is the change's start). */
const POLL_WINDOW_S = 600;
/** Workspaces whose last revision is remembered; all forgotten when full (a poll then repeats a few wake-ups). */
const KNOWN_MAX = 100_000;

/** Told that the workspace's committed change groups reach at least `revision`. */
export type ChangeListener = (workspaceId: string, revision: number) => void;

export type ChangeFeedState = {
  /** "notify": every commit is announced as it happens; "polling": the subscription is lost, the log is polled. */
  mode: "notify" | "polling";
  /** Announcements delivered to the listeners since start. */
  delivered: number;
};

/**
 * The post-commit change feed: a wake-up {workspace, revision} after each committed change group, whoever wrote it.
 * It is never the record: a listener reads the groups themselves from the log (readGroupsAfter) from the last
 * revision it has, so a wake-up missed, repeated or out of order is harmless.
 */
export type ChangeFeed = {
  /** Calls `listener` for each wake-up until the returned function is called. A throwing listener is ignored. */
  subscribe(listener: ChangeListener): () => void;
  state(): ChangeFeedState;
  /** Stops listening and polling (the database stays open). */
  close(): Promise<void>;
};

/**
 * One feed per process, on the database's NOTIFY (LISTEN change_groups): PostgreSQL sends each group's announcement
 * when its transaction commits, in commit order, from any process (tenant, mcp, control, a script), on a connection
 * of its own per listening process; the embedded PGlite database does the same in-process. While the subscription
 * is not in place (its connection lost, reconnecting with backoff) the feed polls the workspaces' revisions every
 * POLL_MS and announces what moved; when it is back, one more poll covers the gap.
 */
export async function createChangeFeed(database: Database, opts: { pollMs?: number } = {}): Promise<ChangeFeed> {
  const pollMs = opts.pollMs ?? POLL_MS;
  const listeners = new Set<ChangeListener>();
  /** The highest revision announced per workspace (polls announce only what moved). */
  const known = new Map<string, number>();
  let live = false;
  let closed = false;
  let delivered = 0;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> | undefined;

  const announce = (workspaceId: string, revision: number) => {
    if (closed) return;
    if ((known.get(workspaceId) ?? 0) < revision) {
      if (known.size >= KNOWN_MAX) known.clear();
      known.set(workspaceId, revision);
    }
    delivered++;
    for (const listener of listeners) {
      try {
        listener(workspaceId, revision);
      } catch {
        // A listener's failure is its own; the others are still told.
      }
    }
  };

  const poll = async () => {
    const rows = await database.rows<{ id: string; revision: number | string }>(
      sql`select id, revision from workspaces
          where updated_at > now() - make_interval(secs => ${POLL_WINDOW_S}) and revision > 0`,
    );
    for (const row of rows) {
      const revision = Number(row.revision);
      if ((known.get(row.id) ?? 0) < revision) announce(row.id, revision);
    }
  };
  const pollOnce = () => {
    polling ??= poll()
      .catch(() => {
        // The database is away too; the next tick tries again.
      })
      .finally(() => {
        polling = undefined;
      });
    return polling;
  };
  const schedule = () => {
    if (closed || live || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void pollOnce().then(schedule);
    }, pollMs);
    timer.unref();
  };

  // The current revisions are known before the subscription, so the first poll after a loss announces only changes.
  await pollOnce();
  const stop: StopListening = await database.listen(CHANGE_CHANNEL, {
    notify(payload) {
      const colon = payload.lastIndexOf(":");
      const revision = Number(payload.slice(colon + 1));
      if (colon > 0 && Number.isInteger(revision)) announce(payload.slice(0, colon), revision);
    },
    live(isLive) {
      const wasLive = live;
      live = isLive;
      if (isLive && !wasLive) void pollOnce();
      schedule();
    },
  });
  schedule();

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    state: () => ({ mode: live ? "notify" : "polling", delivered }),
    async close() {
      closed = true;
      clearTimeout(timer);
      listeners.clear();
      await stop();
      await polling;
    },
  };
}
