import type { Database } from "@ams/db";
import { sql } from "drizzle-orm";

/**
 * The users' access counters (access_versions, raised by the triggers of migration 0022 in the transaction that
 * changes anything a user's standing or API token answer is read from), which the gateway's remembered answers are
 * believed against.
 * - PostgreSQL: every call reads the counter (one primary-key lookup). Another replica may have committed the change
 *   a moment ago, and the next request anywhere must see it with no announcement to wait for.
 * - The embedded PGlite database: only this process writes to it, and the NOTIFY each raise sends (migration 0034) is
 *   handed to this process's listeners while the committing statement is answered, before anything that waits on
 *   it resumes. The counters read are remembered and forgotten when announced, so a request that starts after the
 *   commit reads the database again and sees the new counter; a remembered one costs no statement (on PGlite every
 *   statement runs on the thread that serves the requests).
 * While the subscription is not in place nothing is remembered; a read that raced with an announcement is used once.
 */
export type AccessVersions = { of(userId: string): Promise<number> };

/** The channel migration 0034's ams_raise_access_versions announces each raised user id on. */
export const ACCESS_VERSIONS_CHANNEL = "access_versions";
/** Counters remembered; all forgotten when full (more than the users one process serves). */
const KEPT = 50_000;

const known = new WeakMap<Database, AccessVersions>();

/** One per database: the gateway's standings and the API token lookup believe the same counters. */
export function accessVersionsOf(database: Database): AccessVersions {
  let versions = known.get(database);
  if (!versions) {
    versions =
      database.kind === "pglite" ? rememberedVersions(database) : { of: (userId) => readVersion(database, userId) };
    known.set(database, versions);
  }
  return versions;
}

async function readVersion(database: Database, userId: string): Promise<number> {
  const [row] = await database.rows<{ version: number | string }>(
    sql`select version from access_versions where user_id = ${userId}`,
  );
  return row ? Number(row.version) : 0;
}

function rememberedVersions(database: Database): AccessVersions {
  const versions = new Map<string, number>();
  let live = false;
  let epoch = 0;
  let listening = false;
  const listen = () => {
    if (listening) return;
    listening = true;
    void database
      .listen(ACCESS_VERSIONS_CHANNEL, {
        notify(userId) {
          epoch++;
          versions.delete(userId);
        },
        live(isLive) {
          epoch++;
          versions.clear();
          live = isLive;
        },
      })
      .catch(() => {
        listening = false;
      });
  };
  return {
    async of(userId) {
      listen();
      const kept = live ? versions.get(userId) : undefined;
      if (kept !== undefined) return kept;
      const since = epoch;
      const version = await readVersion(database, userId);
      if (live && epoch === since) {
        if (versions.size >= KEPT) versions.clear();
        versions.set(userId, version);
      }
      return version;
    },
  };
}
