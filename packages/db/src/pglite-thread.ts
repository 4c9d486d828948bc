import { Worker } from "node:worker_threads";
import { type QueryOptions, type Results, types } from "@electric-sql/pglite";
import { type ColumnParser, readReply } from "./pglite-reply.ts";
import type { FromWorker, RawReply, ThreadQueryOptions, ToWorker, WorkerError } from "./pglite-thread-protocol.ts";

/** What a statement is sent with: PGlite's arguments. */
type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/** The part of PGlite's transaction handle the drivers use. */
export type ThreadTransaction = { query: Query };

/**
 * The embedded PostgreSQL (PGlite) on a thread of its own, behind the part of PGlite's API the project uses (query,
 * transaction, listen, close), which drizzle's PGlite driver takes as its client.
 *
 * PGlite runs PostgreSQL compiled to WebAssembly on the thread that calls it: every statement, even a primary-key
 * lookup, held the serving thread for 0.5-0.8 ms (parse, describe, bind, execute and sync inside the WebAssembly),
 * and a heavy one (an import, a diff, a report) stalled every other request of the process for as long as it ran.
 * Here the statements run on the database's thread while the serving thread parses requests, renders and answers
 * others; on two cores the two go on at once.
 *
 * What callers saw stays true: statements run one at a time in the order sent, a statement outside a transaction
 * waits until the open one ends (PGlite's own lock, now on that thread), a failed statement rejects with
 * PostgreSQL's fields (code, constraint, table, detail), and a NOTIFY reaches this thread's listeners before the
 * reply of the statement that committed it (one message port, delivered in order).
 */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #nextId = 1;
  #nextTx = 1;
  /** PGlite's parsers of the rows' text, by type (see the ready message). */
  readonly #parsers: Record<number, (value: string, type: number) => unknown> = { ...types.parsers };
  /** How rows are read for each kind of call (row shape, types kept as text), merged once per kind. */
  readonly #readings = new Map<string, Reading>();
  /** Why the thread can no longer answer (it failed or was closed); every later call is refused with it. */
  #dead: Error | undefined;
  readonly waitReady: Promise<void>;

  constructor(dataDir: string) {
    this.#worker = new Worker(new URL("./pglite-worker.ts", import.meta.url), { workerData: { dataDir } });
    // Only a call waiting for its answer keeps the process alive (see #call); an idle database does not.
    this.#worker.unref();
    const ready = Promise.withResolvers<void>();
    this.waitReady = ready.promise;
    this.#worker.on("message", (message: FromWorker) => {
      if ("notify" in message) {
        for (const listener of this.#listeners.get(message.notify) ?? []) listener(message.payload);
      } else if ("ready" in message) {
        if (message.ready) {
          // PGlite's parsers, with one for each array type as PGlite adds them (_initArrayTypes).
          for (const [array, element] of message.arrays) {
            const parseElement = this.#parsers[element];
            this.#parsers[array] = (value: string) => types.arrayParser(value, parseElement as never, array);
          }
          ready.resolve();
        } else ready.reject(toError(message.error));
      } else {
        const call = this.#pending.get(message.id);
        if (!call) return;
        this.#settled(message.id);
        if ("error" in message) call.reject(toError(message.error));
        else call.resolve(message.result);
      }
    });
    const fail = (error: Error) => {
      this.#dead ??= error;
      ready.reject(error);
      for (const [id, call] of this.#pending) {
        this.#settled(id);
        call.reject(error);
      }
    };
    this.#worker.on("error", (err) =>
      fail(new Error(`the embedded database's thread failed: ${err.message}`, { cause: err })),
    );
    this.#worker.on("exit", (code) => fail(new Error(`the embedded database's thread stopped (exit code ${code})`)));
    // Not awaited by anyone yet: a failed start is reported by waitReady's awaiters and every later call.
    this.waitReady.catch(() => {});
  }

  query: Query = (text, params, options) => {
    const read = this.#reading(options);
    return this.#call({ op: "query", text, params }).then((reply) => this.#rows(reply as RawReply, read)) as never;
  };

  /**
   * Runs `callback` in a transaction: committed when it resolves, rolled back when it throws.
   *
   * The callback's first statement is sent right behind the transaction's opening, without waiting for its answer:
   * the database's thread opens the transaction (PGlite's lock, held until the end) and runs that statement at once.
   * Waiting for the opening's answer first would hold the lock, idle, for a trip through this thread's event loop,
   * which under load queues behind other requests' work: every other statement of the process waits meanwhile.
   */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = this.#nextTx++;
    const opened = this.#call({ op: "begin", tx });
    // A failed opening fails the callback's statements too (they wait for it there); it is reported below.
    opened.catch(() => {});
    let result: T;
    try {
      result = await callback({
        query: (text, params, options) => {
          const read = this.#reading(options);
          return this.#call({ op: "query", tx, text, params }).then((reply) =>
            this.#rows(reply as RawReply, read),
          ) as never;
        },
      });
      await opened;
    } catch (err) {
      await this.#call({ op: "end", tx, commit: false }).catch(() => {});
      throw err;
    }
    await this.#call({ op: "end", tx, commit: true });
    return result;
  }

  /** Calls `callback` with each NOTIFY payload on `channel`; resolves to the function that stops it. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.#listeners.get(channel);
    if (!set) {
      set = new Set();
      this.#listeners.set(channel, set);
      await this.#call({ op: "listen", channel });
    }
    set.add(callback);
    return async () => {
      const current = this.#listeners.get(channel);
      if (!current?.delete(callback) || current.size > 0) return;
      this.#listeners.delete(channel);
      await this.#call({ op: "unlisten", channel });
    };
  }

  async close(): Promise<void> {
    if (this.#dead) return;
    try {
      await this.#call({ op: "close" });
    } finally {
      this.#dead = new Error("the embedded database is closed");
      await this.#worker.terminate();
    }
  }

  #reading(options: QueryOptions | undefined): Reading {
    const thread = threadOptions(options);
    const key = `${thread?.rowMode ?? ""}:${thread?.identity?.join(",") ?? ""}`;
    let known = this.#readings.get(key);
    if (!known) {
      const parsers = { ...this.#parsers };
      for (const oid of thread?.identity ?? []) parsers[oid] = (value: string) => value;
      known = { rowMode: thread?.rowMode, parsers };
      this.#readings.set(key, known);
    }
    return known;
  }

  /**
   * A statement's rows read from the backend's bytes, here (see pglite-worker.ts's prepared): each column by PGlite's
   * parser for its type, the rows as objects unless asked as arrays. A notification in the answer (a statement
   * outside a transaction that notified) reaches the listeners before the reply does, as it did from PGlite.
   */
  #rows(reply: RawReply, read: Reading): Results {
    const parsers: ColumnParser[] = reply.columns.map((column) => read.parsers[column.dataTypeID]);
    const answer = readReply(reply.raw, reply.columns, parsers, read.rowMode, (channel, payload) => {
      for (const listener of this.#listeners.get(channel) ?? []) listener(payload);
    });
    if ("error" in answer) throw answer.error;
    return answer.reply as Results;
  }

  #call(message: DistributiveOmit<ToWorker, "id">): Promise<unknown> {
    if (this.#dead) return Promise.reject(this.#dead);
    const id = this.#nextId++;
    const answer = Promise.withResolvers<unknown>();
    if (this.#pending.size === 0) this.#worker.ref();
    this.#pending.set(id, answer);
    this.#worker.postMessage({ ...message, id });
    return answer.promise;
  }

  #settled(id: number) {
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
  }
}

/**
 * How a kind of call's rows are read: the row shape and PGlite's parsers, with the identity for the types the caller
 * keeps as text (drizzle's: timestamps, dates, intervals and their arrays). Merged once per kind of call: PGlite's
 * parseResults copied its whole parser table into a new object for every statement that brought parsers of its own.
 */
type Reading = {
  rowMode: "array" | "object" | undefined;
  parsers: Record<number, (value: string, type: number) => unknown>;
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A query's options as they can cross threads. Parser functions cannot: the drivers' parsers keep the text of the
 * types they list (drizzle's: timestamps, dates, intervals and their arrays), which the database's thread does for
 * the same types. Any other option is refused rather than silently dropped.
 */
function threadOptions(options: QueryOptions | undefined): ThreadQueryOptions | undefined {
  if (!options) return undefined;
  const known = checked.get(options);
  if (known) return known;
  const { rowMode, parsers, ...rest } = options;
  const other = Object.keys(rest).filter((key) => rest[key as keyof typeof rest] !== undefined);
  if (other.length > 0) throw new Error(`the embedded database's thread cannot take the option(s) ${other.join(", ")}`);
  const identity = Object.entries(parsers ?? {}).map(([oid, parse]) => {
    if (parse("\u0001", Number(oid)) !== "\u0001") throw new Error(`the parser for type ${oid} is not the identity`);
    return Number(oid);
  });
  const result = { rowMode, identity };
  // drizzle passes the same options object with every statement of a prepared query: checked once.
  checked.set(options, result);
  return result;
}

const checked = new WeakMap<QueryOptions, ThreadQueryOptions>();

function toError(error: WorkerError): Error {
  const err = Object.assign(new Error(error.message), error.fields);
  err.name = error.name;
  if (error.stack) err.stack = `${err.stack}\n    at the embedded database's thread:\n${error.stack}`;
  return err;
}
