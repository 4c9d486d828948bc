import { parentPort, workerData } from "node:worker_threads";
import {
  type messages,
  PGlite,
  type parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";
import { type Column, type ColumnParser, readReply } from "./pglite-reply.ts";
import type { FromWorker, ToWorker, WorkerError } from "./pglite-thread-protocol.ts";

/**
 * The embedded database's own thread (see pglite-thread.ts): PGlite runs PostgreSQL compiled to WebAssembly on the
 * thread that calls it, so here it runs beside the thread that serves requests instead of on it. Each message is
 * one call of PGlite's API; a transaction stays open here, its callback waiting for the statements sent under its
 * number and for its end.
 */
const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs as a worker thread (pglite-thread.ts starts it)");
const { dataDir } = workerData as { dataDir: string };

const send = (message: FromWorker) => port.postMessage(message);

/** A refusal as plain data: PostgreSQL's fields (code, constraint, table, detail…) are what callers read. */
function asError(err: unknown): WorkerError {
  if (err instanceof Error) {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(err)) {
      if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
    }
    return { name: err.name, message: err.message, stack: err.stack, fields };
  }
  return { name: "Error", message: String(err), fields: {} };
}

/**
 * How a statement's rows are read: the row shape, and PGlite's parsers with the identity for the types the caller
 * keeps as text (parser functions cannot cross threads: drizzle's are the identity for the types it lists). Merged
 * once per kind of call: PGlite's parseResults would copy its whole parser table into a new object for every
 * statement that brings parsers of its own (~5% of this thread's time under load).
 */
type Reading = { options: QueryOptions | undefined; parsers: Parameters<typeof parse.parseResults>[1] };
const readings = new Map<string, Reading>();

function reading(options: { rowMode?: "array" | "object"; identity?: number[] } | undefined): Reading {
  const key = `${options?.rowMode ?? ""}:${options?.identity?.join(",") ?? ""}`;
  let known = readings.get(key);
  if (!known) {
    const parsers = { ...internals.parsers };
    for (const oid of options?.identity ?? []) parsers[oid] = (value: string) => value;
    known = { options: options?.rowMode ? { rowMode: options.rowMode } : undefined, parsers };
    readings.set(key, known);
  }
  return known;
}

const db = new PGlite(dataDir);

/** PGlite's locks (what its own query() takes) and its type serializers, which the statements below use alike. */
const internals = db as unknown as {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, (value: unknown) => string>;
  parsers: Parameters<typeof parse.parseResults>[1];
};

/**
 * A statement PostgreSQL has parsed under `name`: its parameters' types, the columns of its rows (none: NoData) and
 * their parsers for each way of reading them.
 */
type Prepared = { name: string; params: number[]; columns: Column[]; parsers: Map<Reading, ColumnParser[]> };
/** Statements kept parsed, by their text, least recently used first. */
const statements = new Map<string, Prepared>();
/** How many: the queries of every verb of the product fit, with room for the one-off ones (migrations). */
const STATEMENTS_KEPT = 1000;
let statementCount = 0;
/** Statements dropped from the map, closed in PostgreSQL with the next Parse. */
let toClose: string[] = [];
const { serialize } = protocol;

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * A statement run as a named prepared statement, parsed (and described) once per text and then bound and executed:
 * PGlite's query() parses, describes, binds, describes and executes it anew every time, six trips into the
 * WebAssembly (~0.55-0.85 ms for a primary-key lookup on this project's test machine against ~0.2 ms bound to a
 * kept statement). PostgreSQL plans a prepared statement as it does those of postgres.js on the server
 * (prepare: true): custom plans first, a generic plan when no worse. The parameters are serialized by PGlite's own
 * serializers and the rows read with its parsers (readReply reads the answer's bytes in place, which PGlite's reader
 * copies column by column), so callers see the answer query() gave.
 */
async function prepared(text: string, params: unknown[], read: Reading): Promise<Results> {
  for (let attempt = 0; ; attempt++) {
    let statement = statements.get(text);
    if (statement) {
      statements.delete(text);
      statements.set(text, statement);
    } else {
      const name = `ams_${++statementCount}`;
      const closing = toClose.map((old) => serialize.close({ type: "S", name: old }));
      toClose = [];
      const { messages } = await db.execProtocol(
        joined([
          ...closing,
          serialize.parse({ name, text }),
          serialize.describe({ type: "S", name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      const described = messages.find((m) => m.name === "parameterDescription") as
        | messages.ParameterDescriptionMessage
        | undefined;
      const rows = messages.find((m) => m.name === "rowDescription") as messages.RowDescriptionMessage | undefined;
      statement = {
        name,
        params: described?.dataTypeIDs ?? [],
        columns: rows?.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })) ?? [],
        parsers: new Map(),
      };
      statements.set(text, statement);
      if (statements.size > STATEMENTS_KEPT) {
        const [oldest, kept] = statements.entries().next().value as [string, Prepared];
        statements.delete(oldest);
        toClose.push(kept.name);
      }
    }
    const types = statement.params;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = internals.serializers[types[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    let parsers = statement.parsers.get(read);
    if (!parsers) {
      parsers = statement.columns.map((column) => read.parsers[column.dataTypeID]);
      statement.parsers.set(read, parsers);
    }
    const bytes = await exchange(
      joined([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
    );
    const answer = readReply(bytes, statement.columns, parsers, read.options?.rowMode, announce);
    if ("reply" in answer) return answer.reply as Results;
    // A table the statement reads changed its columns (a migration): parsed again, once.
    if (attempt === 0 && (answer.error as { code?: string }).code === "0A000") {
      statements.delete(text);
      toClose.push(statement.name);
      continue;
    }
    throw answer.error;
  }
}

/** The backend's bytes for `message`, unread by PGlite (readReply reads them). */
async function exchange(message: Uint8Array): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  // Each chunk is a view of the WebAssembly's memory, reused once the call returns: copied.
  await db.execProtocolRawStream(message, { syncToFs: false, onRawData: (chunk) => chunks.push(chunk.slice()) });
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : joined(chunks);
}

/**
 * A notification found in a statement's answer, which PGlite did not read: sent to the serving thread at once, as
 * PGlite's own listeners (below) send those it reads (a transaction's, at its COMMIT).
 */
function announce(channel: string, payload: string) {
  if (listening.has(channel)) send({ notify: channel, payload });
}
/** Open transactions: each callback's handle and how to end it. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
let nextTx = 1;
const listening = new Map<string, () => Promise<void>>();

async function handle(message: ToWorker): Promise<unknown> {
  switch (message.op) {
    case "query": {
      const { text, params = [] } = message;
      const read = reading(message.options);
      if (message.tx === undefined) {
        // As query() does: after any open transaction, alone, then written out to the data directory.
        return await internals._runExclusiveTransaction(async () => {
          const result = await internals._runExclusiveQuery(() => prepared(text, params, read));
          await db.syncToFs();
          return result;
        });
      }
      if (!transactions.has(message.tx)) throw new Error(`transaction ${message.tx} is not open`);
      // Inside its transaction (which holds the transaction lock), alone among statements.
      return await internals._runExclusiveQuery(() => prepared(text, params, read));
    }
    case "begin": {
      const tx = nextTx++;
      const begun = Promise.withResolvers<void>();
      // Settles when the transaction has committed or rolled back: answered as the end message's reply.
      const done = db.transaction(async (handle) => {
        const ended = Promise.withResolvers<boolean>();
        transactions.set(tx, { tx: handle, end: ended.resolve });
        begun.resolve();
        const commit = await ended.promise;
        if (!commit) await handle.rollback();
      });
      ends.set(tx, done);
      // A transaction that could not open (the database closed) rejects `done` before `begun` settles.
      await Promise.race([begun.promise, done]);
      return tx;
    }
    case "end": {
      const open = transactions.get(message.tx);
      const done = ends.get(message.tx);
      if (!open || !done) throw new Error(`transaction ${message.tx} is not open`);
      open.end(message.commit);
      try {
        await done;
      } finally {
        transactions.delete(message.tx);
        ends.delete(message.tx);
      }
      return null;
    }
    case "listen": {
      // PostgreSQL folds an unquoted channel name to lower case; notifications name it so (announce, above).
      if (message.channel !== message.channel.toLowerCase()) {
        throw new Error(`listen: channel names are lower case here (got ${message.channel})`);
      }
      if (!listening.has(message.channel)) {
        // Sent at once, while the statement that notified is still being answered: the notification reaches the
        // serving thread before that statement's reply does, as it reached in-thread listeners (same port, in order).
        const stop = await db.listen(message.channel, (payload) =>
          send({ notify: message.channel, payload } satisfies FromWorker),
        );
        listening.set(message.channel, stop);
      }
      return null;
    }
    case "unlisten": {
      const stop = listening.get(message.channel);
      listening.delete(message.channel);
      await stop?.();
      return null;
    }
    case "close": {
      await db.close();
      return null;
    }
  }
}

const ends = new Map<number, Promise<void>>();

port.on("message", (message: ToWorker) => {
  handle(message).then(
    (result) => send({ id: message.id, result }),
    (err: unknown) => send({ id: message.id, error: asError(err) }),
  );
});

db.waitReady.then(
  () => send({ ready: true }),
  (err: unknown) => send({ ready: false, error: asError(err) }),
);
