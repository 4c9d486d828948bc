/** Messages between the serving thread (pglite-thread.ts) and the embedded database's thread (pglite-worker.ts). */

/** A query's options that can cross threads: the row shape, and the types whose text is kept as it comes. */
export type ThreadQueryOptions = { rowMode?: "array" | "object"; identity?: number[] };

export type ToWorker = { id: number } & (
  | { op: "query"; tx?: number; text: string; params?: unknown[]; options?: ThreadQueryOptions }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; channel: string }
  | { op: "close" }
);

/** An error as data: its name, message, stack and PostgreSQL's fields (code, constraint, table, detail…). */
export type WorkerError = { name: string; message: string; stack?: string; fields: Record<string, unknown> };

export type FromWorker =
  | { id: number; result: unknown }
  | { id: number; error: WorkerError }
  | { notify: string; payload: string }
  | { ready: true }
  | { ready: false; error: WorkerError };
