/** Messages between the serving thread (pglite-thread.ts) and the embedded database's thread (pglite-worker.ts). */
import type { Column } from "./pglite-reply.ts";

/** A query's options that can cross threads: the row shape, and the types whose text is kept as it comes. */
export type ThreadQueryOptions = { rowMode?: "array" | "object"; identity?: number[] };

export type ToWorker = { id: number } & (
  | { op: "query"; tx?: number; text: string; params?: unknown[] }
  | { op: "begin"; tx: number }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; channel: string }
  | { op: "close" }
);

/** A statement's answer: the backend's bytes (Bind, Execute, Sync), unread, and the columns of its rows. */
export type RawReply = { raw: Uint8Array; columns: Column[] };

/** An error as data: its name, message, stack and PostgreSQL's fields (code, constraint, table, detail…). */
export type WorkerError = { name: string; message: string; stack?: string; fields: Record<string, unknown> };

export type FromWorker =
  | { id: number; result: unknown }
  | { id: number; error: WorkerError }
  | { notify: string; payload: string }
  /** Ready: with each array type and its element's type (for PGlite's parsers of array columns). */
  | { ready: true; arrays: [number, number][] }
  | { ready: false; error: WorkerError };
