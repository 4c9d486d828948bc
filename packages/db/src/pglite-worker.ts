import { parentPort, workerData } from "node:worker_threads";
import { type messages, PGlite, protocol, type Transaction } from "@electric-sql/pglite";
import { type Column, readReply } from "./pglite-reply.ts";
import type { FromWorker, RawReply, ToWorker, WorkerError } from "./pglite-thread-protocol.ts";

/**
 * The embedded database's own thread (see pglite-thread.ts): PGlite runs PostgreSQL compiled to WebAssembly on the
 * thread that calls it, so here it runs beside the thread that serves requests instead of on it. Each message is
 * one call of PGlite's API; a transaction stays open here, its callback waiting for the statements sent under its
 * number and for its end.
 */
const port = parentPort;
if (!port) throw new Error("pglite-worker.ts runs as a worker thread (pglite-thread.ts starts it)");
const { dataDir } = workerData as { dataDir: string };

const send = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

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

const db = new PGlite(dataDir);

/** PGlite's locks (what its own query() takes) and its type serializers, which the statements below use alike. */
const internals = db as unknown as {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, (value: unknown) => string>;
};

/** A statement PostgreSQL has parsed under `name`: its parameters' types and the columns of its rows (none: NoData). */
type Prepared = { name: string; params: number[]; columns: Column[] };
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
 * serializers.
 *
 * The answer is the backend's bytes, unread, with the statement's columns: the serving thread reads the rows from
 * them (readReply, with PGlite's parsers), the bytes handed over without a copy. Reading the rows here and cloning
 * them across cost this thread, which every statement of the process waits for, more than running the statement:
 * for a list of 600 relationships ~1.5 ms of reading and ~1 ms of cloning against ~1.3 ms in PostgreSQL. A refusal
 * is read here, so that a statement whose table changed its columns is parsed again.
 */
async function prepared(text: string, params: unknown[]): Promise<RawReply> {
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
    const raw = await exchange(
      joined([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
    );
    if (!refused(raw)) return { raw, columns: statement.columns };
    const answer = readReply(raw, statement.columns, [], "array", announce);
    if ("reply" in answer) return { raw, columns: statement.columns };
    // A table the statement reads changed its columns (a migration): parsed again, once.
    if (attempt === 0 && (answer.error as { code?: string }).code === "0A000") {
      statements.delete(text);
      toClose.push(statement.name);
      continue;
    }
    throw answer.error;
  }
}

/** Whether the answer holds an ErrorResponse: its messages' headers only are read, not their content. */
function refused(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 5 <= bytes.length; at += 1 + view.getInt32(at + 1)) {
    if (bytes[at] === 0x45) return true;
  }
  return false;
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
/** Transactions asked for and not open yet (waiting for the lock): their statements wait for them. */
const opening = new Map<number, Promise<void>>();
const listening = new Map<string, () => Promise<void>>();

/**
 * PGLITE_TRACE=<file>: this thread's time per statement text (calls, total and slowest milliseconds, from the call's
 * arrival here to its answer, waits for the locks included), written to <file>.<pid> as JSON every 2 s: where the embedded
 * database's time goes under a load (`bench:load` with LOAD_NODE_ARGS unneeded: the variable reaches this thread).
 */
const tracePath = process.env.PGLITE_TRACE;
const traced = new Map<string, { calls: number; ms: number; max: number }>();
if (tracePath) {
  const { writeFileSync } = await import("node:fs");
  const write = () =>
    writeFileSync(
      `${tracePath}.${process.pid}`,
      JSON.stringify(
        [...traced].map(([text, t]) => ({ text, ...t })).sort((a, b) => b.ms - a.ms),
        null,
        1,
      ),
    );
  setInterval(write, 2000).unref();
}
function trace(text: string, started: number) {
  const ms = performance.now() - started;
  const known = traced.get(text) ?? { calls: 0, ms: 0, max: 0 };
  known.calls++;
  known.ms += ms;
  known.max = Math.max(known.max, ms);
  traced.set(text, known);
}

async function handle(message: ToWorker): Promise<unknown> {
  if (!tracePath || message.op === "query") return handleMessage(message);
  const started = performance.now();
  try {
    return await handleMessage(message);
  } finally {
    trace(`<${message.op}>`, started);
  }
}

async function handleMessage(message: ToWorker): Promise<unknown> {
  switch (message.op) {
    case "query": {
      const { text, params = [] } = message;
      if (message.tx === undefined) {
        // As query() does: after any open transaction, alone, then written out to the data directory.
        return await internals._runExclusiveTransaction(async () => {
          const started = performance.now();
          const result = await internals._runExclusiveQuery(() => prepared(text, params));
          await db.syncToFs();
          if (tracePath) trace(text, started);
          return result;
        });
      }
      // Sent right behind its transaction's opening (pglite-thread.ts): it waits until the transaction is open.
      await opening.get(message.tx);
      if (!transactions.has(message.tx)) throw new Error(`transaction ${message.tx} is not open`);
      // Inside its transaction (which holds the transaction lock), alone among statements.
      return await internals._runExclusiveQuery(async () => {
        const started = performance.now();
        const result = await prepared(text, params);
        if (tracePath) trace(`[tx] ${text}`, started);
        return result;
      });
    }
    case "begin": {
      const { tx } = message;
      if (opening.has(tx) || transactions.has(tx)) throw new Error(`transaction ${tx} is already open`);
      const begun = Promise.withResolvers<void>();
      // Registered before anything is awaited: the transaction's statements, which arrive right behind this message,
      // find it and wait for it.
      opening.set(tx, begun.promise);
      begun.promise.catch(() => {});
      // Settles when the transaction has committed or rolled back: answered as the end message's reply.
      const done = db.transaction(async (handle) => {
        const ended = Promise.withResolvers<boolean>();
        transactions.set(tx, { tx: handle, end: ended.resolve });
        begun.resolve();
        const heldFrom = performance.now();
        const commit = await ended.promise;
        if (tracePath) trace("<tx held, begin to end>", heldFrom);
        if (!commit) await handle.rollback();
      });
      ends.set(tx, done);
      // A transaction that could not open (the database closed) rejects `done` before `begun` settles: its
      // statements are refused with that error.
      done.catch((err: unknown) => begun.reject(err));
      try {
        await Promise.race([begun.promise, done]);
      } finally {
        opening.delete(tx);
      }
      return tx;
    }
    case "end": {
      // An end that overtakes its transaction's opening (a callback that failed before its first statement) waits
      // for it, so that no transaction is left open waiting for an end that came first.
      await opening.get(message.tx)?.catch(() => {});
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
    (result) => {
      // A statement's bytes are handed over, not copied (they are a buffer of their own: see exchange).
      const raw = (result as Partial<RawReply> | null)?.raw;
      send({ id: message.id, result }, raw ? [raw.buffer as ArrayBuffer] : undefined);
    },
    (err: unknown) => send({ id: message.id, error: asError(err) }),
  );
});

db.waitReady.then(
  async () => {
    // Each array type and its element's type, read as PGlite reads them for its own parsers (_initArrayTypes): the
    // serving thread's parsers of the rows are PGlite's, built the same way there.
    const { rows } = await db.query<{ oid: number; typarray: number }>(
      "select oid, typarray from pg_type where typarray <> 0",
    );
    send({ ready: true, arrays: rows.map((r) => [r.typarray, r.oid] as [number, number]) });
  },
  (err: unknown) => send({ ready: false, error: asError(err) }),
);
