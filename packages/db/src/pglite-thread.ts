import { Worker } from "node:worker_threads";
import type { QueryOptions, Results } from "@electric-sql/pglite";
import type { FromWorker, ThreadQueryOptions, ToWorker, WorkerError } from "./pglite-thread-protocol.ts";

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
        if (message.ready) ready.resolve();
        else ready.reject(toError(message.error));
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

  query: Query = (text, params, options) =>
    this.#call({ op: "query", text, params, options: threadOptions(options) }) as never;

  /** Runs `callback` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = (await this.#call({ op: "begin" })) as number;
    let result: T;
    try {
      result = await callback({
        query: (text, params, options) =>
          this.#call({ op: "query", tx, text, params, options: threadOptions(options) }) as never,
      });
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
