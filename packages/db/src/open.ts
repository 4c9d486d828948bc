import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { PgDialect } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { type ListenHandlers, listenPostgres, type StopListening } from "./listen.ts";
import { migratePostgresLocked } from "./migrate-lock.ts";
import { PgliteThread } from "./pglite-thread.ts";
import * as schema from "./schema/index.ts";

export type { ListenHandlers, StopListening } from "./listen.ts";
export type Schema = typeof schema;
// biome-ignore lint/suspicious/noExplicitAny: both drivers' result kinds sit behind the one PgDatabase type
export type Db = PgDatabase<PgQueryResultHKT & any, Schema>;
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * The pool's connections as PostgreSQL sees them at this moment (pg_stat_activity, by the pool's own
 * application_name): in use (running a statement or inside a transaction) and idle. postgres.js keeps its own queues
 * private, so statements waiting for a free connection cannot be counted here.
 */
export type PoolStats = { inUse: number; idle: number };

export type Database = {
  db: Db;
  kind: "postgres" | "pglite";
  /** Connections the pool may open (1 for PGlite). */
  maxConnections: number;
  /** The pool's connections now; undefined for PGlite (one in-process connection, no pool). */
  poolStats(): Promise<PoolStats | undefined>;
  /** Rows of a raw statement, whichever driver runs it. */
  rows<T = Record<string, unknown>>(query: ReturnType<typeof sql>, on?: DbOrTx): Promise<T[]>;
  /**
   * The rows of a statement in pieces of at most `size`, in order: read through a cursor on PostgreSQL, so that the
   * process never holds the whole answer; PGlite (in process, small models) answers in one piece. Nothing else may
   * run on the same transaction until the last piece is read.
   */
  pieces<T = Record<string, unknown>>(query: ReturnType<typeof sql>, size: number, on?: DbOrTx): AsyncIterable<T[]>;
  /**
   * PostgreSQL only (absent on PGlite): a select's rows as `COPY (...) TO STDOUT` writes them in its text format, handed
   * to `piece` as they arrive, the rows received since the last piece at once (in order; resolves after the last),
   * outside any transaction. COPY takes no bind
   * parameters, so the statement's are written into it as escaped literals (see `inlineParameters`). The copy has a
   * connection of its own from the pool until it ends. A `piece` that throws fails the copy with that error (the rest
   * is read first, so that the connection goes back clean).
   */
  copyOut?(query: ReturnType<typeof sql>, piece: (bytes: Uint8Array) => void): Promise<void>;
  ping(): Promise<void>;
  /**
   * Subscribes to NOTIFY on `channel` (a connection of its own on PostgreSQL, reconnecting when lost; the embedded
   * database's listener on PGlite). Resolves once the first attempt to subscribe has been made.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<StopListening>;
  close(): Promise<void>;
};

export const migrationsFolder = fileURLToPath(new URL("../drizzle", import.meta.url));

export type OpenOptions = {
  /** postgres:// URL; when absent, an embedded PGlite database in dataDir. */
  url?: string;
  /** Where PGlite keeps its files (default ./data); "memory://" for a throwaway database. */
  dataDir?: string;
  /**
   * Apply pending migrations on open. Default: true, unless MIGRATE_ON_START=false (a deployment whose migration
   * Job already ran them). An embedded PGlite database always migrates: nothing else can.
   */
  migrate?: boolean;
  /** The pool's size (DB_POOL_MAX; default 10). */
  maxConnections?: number;
  /** Shown in pg_stat_activity.application_name, with a suffix unique to this pool (default "archimate"). */
  applicationName?: string;
};

/** Opens PostgreSQL (postgres.js) when a URL is given, PGlite otherwise; both behind one Drizzle type. */
export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  const database = opts.url
    ? await openPostgres(opts.url, opts.maxConnections ?? 10, opts.applicationName ?? "archimate")
    : await openPglite(opts.dataDir);
  const migrate = opts.migrate ?? process.env.MIGRATE_ON_START !== "false";
  if (migrate || database.kind === "pglite") await migrateDatabase(database, opts.url);
  return database;
}

const dialect = new PgDialect();

/** The text and parameters PostgreSQL receives for a statement (for EXPLAIN in tests and benches). */
export function compileQuery(query: ReturnType<typeof sql>): { sql: string; params: unknown[] } {
  return dialect.sqlToQuery(query);
}

/**
 * `text` with each `$n` replaced by parameter n as a literal, for the one statement that takes no bind parameters
 * (COPY). Strings become `E'...'` literals with every backslash and quote escaped (read the same whatever
 * `standard_conforming_strings` says); finite numbers and booleans are written as such, null as NULL. Anything else,
 * a string holding NUL (which PostgreSQL text cannot hold) or a `$n` without its parameter is refused. The statement's
 * own text must not hold `$` followed by a digit elsewhere (the project's statements are written with drizzle's `sql`,
 * whose placeholders are the only such).
 */
export function inlineParameters(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index < 0 || index >= params.length) throw new Error(`statement names $${n}, which has no parameter`);
    const value = params[index];
    if (value === null) return "NULL";
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number" && Number.isFinite(value)) return value < 0 ? `(${value})` : String(value);
    if (typeof value !== "string")
      throw new Error(`parameter $${n} is of type ${typeof value}, which is not written inline`);
    if (value.includes("\0")) throw new Error(`parameter $${n} holds a NUL character`);
    return `E'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
  });
}

async function openPostgres(url: string, max: number, name: string): Promise<Database> {
  if (!Number.isInteger(max) || max < 1) throw new Error(`the pool size must be a whole number >= 1 (got ${max})`);
  // Unique to this pool, so its connections can be counted in pg_stat_activity (poolStats) and told apart by a DBA.
  const applicationName = `${name.slice(0, 40)}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const client = postgres(url, {
    max,
    onnotice: () => {},
    prepare: true,
    connection: { application_name: applicationName },
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  const listeners = new Set<StopListening>();
  return {
    db,
    kind: "postgres",
    maxConnections: max,
    async poolStats() {
      // The connection answering this counts as idle: it is free again as soon as the answer is read.
      const [row] = await client<{ in_use: number; idle: number }[]>`
        select count(*) filter (where pid <> pg_backend_pid() and state is distinct from 'idle')::int as in_use,
               count(*) filter (where pid = pg_backend_pid() or state = 'idle')::int as idle
        from pg_stat_activity where application_name = ${applicationName}`;
      return { inUse: row?.in_use ?? 0, idle: row?.idle ?? 0 };
    },
    async rows(query, on = db) {
      // Outside a transaction, statements run as named prepared statements: drizzle's execute() sends unnamed
      // ones, which PostgreSQL plans anew every time (several times slower for the hot single-row lookups).
      // The client is drizzle's, whose json/jsonb serializers pass our JSON text through unchanged.
      // Inside a transaction the same, on the transaction's own postgres.js connection (drizzle keeps it as
      // session.client); statements issued together (Promise.all) are then pipelined on that connection.
      const target = on === db ? client : (on as unknown as { session?: { client?: postgres.Sql } }).session?.client;
      if (target) {
        const { sql: text, params } = dialect.sqlToQuery(query);
        return (await target.unsafe(text, params as never[], { prepare: true })) as unknown as never[];
      }
      return (await on.execute(query)) as unknown as never[];
    },
    async copyOut(query, piece) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const statement = `copy (${inlineParameters(text, params)}) to stdout`;
      // A connection of its own for the copy: the pool would otherwise send other statements to a connection that is
      // copying, which postgres.js refuses (COPY_IN_PROGRESS).
      const reserved = await client.reserve();
      let failed: { error: unknown } | undefined;
      try {
        const stream = await reserved.unsafe(statement).readable();
        // The stream's own reads join the rows buffered since the last one (PostgreSQL sends a message per row) into
        // one piece, which is what the caller wants: a few large pieces, not a call per row. After a piece that
        // throws, the rest is read and dropped, so the connection goes back to the pool with the copy ended.
        for await (const bytes of stream) {
          if (failed) continue;
          try {
            piece(bytes as Uint8Array);
          } catch (error) {
            failed = { error };
          }
        }
      } finally {
        reserved.release();
      }
      if (failed) throw failed.error;
    },
    async *pieces(query, size, on = db) {
      const target = on === db ? client : (on as unknown as { session?: { client?: postgres.Sql } }).session?.client;
      if (!target) {
        yield (await on.execute(query)) as unknown as never[];
        return;
      }
      const { sql: text, params } = dialect.sqlToQuery(query);
      for await (const rows of target.unsafe(text, params as never[], { prepare: true }).cursor(size)) {
        yield rows as unknown as never[];
      }
    },
    async ping() {
      await client`select 1`;
    },
    async listen(channel, handlers) {
      const stop = await listenPostgres(url, `${applicationName}:listen`.slice(0, 63), channel, handlers);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * PGlite in `dataDir`. A server's database runs on a thread of its own (pglite-thread.ts: its statements no longer
 * hold the thread that serves requests); PGLITE_THREAD=false keeps it on the calling thread, as do the command-line
 * tools' migrated template and the copies loaded from it (`onThisThread`, `loadDataDir`: dumped and loaded with
 * PGlite's own API).
 */
async function openPglite(
  dataDir = "./data/pglite",
  opts: { loadDataDir?: Blob; onThisThread?: boolean } = {},
): Promise<Database> {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const { loadDataDir } = opts;
  const onThisThread = opts.onThisThread || loadDataDir !== undefined || process.env.PGLITE_THREAD === "false";
  const client = !onThisThread
    ? new PgliteThread(dataDir)
    : loadDataDir
      ? new PGlite({ dataDir, loadDataDir })
      : new PGlite(dataDir);
  await client.waitReady;
  // drizzle's PGlite driver calls query() and transaction() of its client, which the thread answers alike.
  const db = drizzlePglite({ client: client as PGlite, schema }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    maxConnections: 1,
    poolStats: async () => undefined,
    async rows(query, on = db) {
      const result = (await on.execute(query)) as unknown as { rows: never[] };
      return result.rows;
    },
    async *pieces(query, _size, on = db) {
      yield ((await on.execute(query)) as unknown as { rows: never[] }).rows;
    },
    async ping() {
      await client.query("select 1");
    },
    async listen(channel, handlers) {
      const unlisten = await client.listen(channel, (payload) => handlers.notify(payload));
      handlers.live(true);
      return async () => {
        handlers.live(false);
        await unlisten();
      };
    },
    async close() {
      await client.close();
    },
  };
}

/**
 * A throwaway in-memory PGlite database with every migration applied, for a command-line tool (pnpm validate):
 * started from a copy of a freshly migrated database kept in `cacheDir` as a tarball named by a hash of the
 * migrations and the PGlite build, so only the first run of a checkout migrates (about 16 s on a loaded machine; a
 * copy loads in about 3). A copy that cannot be read or written is no error: the database is then migrated as usual.
 */
export async function openMigratedMemoryDatabase(cacheDir: string): Promise<Database> {
  const file = join(cacheDir, `pglite-${migrationsKey()}.tar.gz`);
  let copy: Blob | undefined;
  try {
    copy = new Blob([readFileSync(file)]);
  } catch {
    copy = undefined;
  }
  if (copy) {
    try {
      const database = await openPglite("memory://", { loadDataDir: copy });
      await migrateDatabase(database);
      return database;
    } catch {
      rmSync(file, { force: true });
    }
  }
  const database = await openPglite("memory://", { onThisThread: true });
  await migrateDatabase(database);
  try {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer());
    mkdirSync(cacheDir, { recursive: true });
    // Written aside and renamed: a parallel run reads a whole copy or none.
    const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(temp, dump);
    renameSync(temp, file);
  } catch {
    // No copy kept (a read-only checkout): the next run migrates again.
  }
  return database;
}

/** The migrations' content and the PGlite build they ran on, hashed: a copy made from other migrations is never used. */
function migrationsKey(): string {
  const hash = createHash("sha256");
  hash.update(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  for (const dir of [migrationsFolder, join(migrationsFolder, "meta")]) {
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith(".sql") || n === "_journal.json")
      .sort()) {
      hash.update(name).update(readFileSync(join(dir, name)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * Serialized across processes by a session-level advisory lock, so parallel starts do not race on the same database
 * (connect directly, not through PgBouncer in transaction mode, which would hand the lock to another session).
 * Waits at most lockTimeoutMs for the lock and fails naming who holds it.
 */
export async function migrateDatabase(
  database: Database,
  url?: string,
  opts: { lockTimeoutMs?: number } = {},
): Promise<void> {
  if (database.kind === "pglite") {
    // biome-ignore lint/suspicious/noExplicitAny: the migrator wants the concrete driver type
    await migratePglite(database.db as any, { migrationsFolder });
    return;
  }
  if (!url) throw new Error("migrateDatabase needs the PostgreSQL URL");
  await migratePostgresLocked(url, opts.lockTimeoutMs ?? 300_000, migrationsFolder);
}
