import type { Database } from "@ams/db";
import { sql } from "drizzle-orm";
import { PictureMemory } from "./render/png/picture-memory.ts";

/**
 * Whole answers of the list verbs, remembered per workspace revision on this process. Every change to a workspace's
 * content moves its revision in the transaction that makes it (the change log's triggers refuse a change outside a
 * change group), so an answer read at revision N stays the answer for as long as the workspace reads N: nothing stale
 * is answered, and a workspace many people read between writes is read from the database once per change.
 *
 * The revision is read before the rows, never after: a write that commits between the two makes the rows newer than
 * the key, and no later reader can see the older revision again. Reading it after could keep older rows under the
 * newer revision. Outside a transaction only (the list verbs take the root database): a revision read inside a
 * transaction that then rolls back would be given again by the next change.
 *
 * LIST_CACHE_MB (default 32; 0 keeps nothing) bounds the memory; an answer over a quarter of it is not kept.
 */
const megabytes = Number(process.env.LIST_CACHE_MB ?? 32);
const maxBytes = Number.isFinite(megabytes) && megabytes > 0 ? megabytes * 1024 * 1024 : 0;
const answers = new PictureMemory<unknown>(maxBytes, 1024);

/** Workspace ids are unique within a database, not across the databases one process may open (tests, benches). */
const databaseIds = new WeakMap<Database, number>();
let nextDatabaseId = 1;
function databaseId(database: Database): number {
  let id = databaseIds.get(database);
  if (id === undefined) {
    id = nextDatabaseId++;
    databaseIds.set(database, id);
  }
  return id;
}

/**
 * The answer of `read` for this workspace, verb and query (the verb's whole input, as JSON): from memory while the workspace's revision is the one it
 * was read at, else read (and kept, frozen: the answer is shared by every caller until the next change).
 */
export async function atRevision<T extends object>(
  database: Database,
  workspaceId: string,
  verb: string,
  query: object,
  read: () => Promise<T>,
): Promise<T> {
  if (maxBytes === 0) return read();
  const [row] = await database.rows<{ revision: string | number }>(
    sql`select revision from workspaces where id = ${workspaceId}`,
  );
  if (!row) return read();
  const key = JSON.stringify([databaseId(database), workspaceId, Number(row.revision), verb, query]);
  const known = answers.get(key);
  if (known !== undefined) return known as T;
  const answer = await read();
  const bytes = roughBytes(answer, maxBytes / 4);
  if (bytes <= maxBytes / 4) answers.set(key, deepFreeze(answer), bytes);
  return answer;
}

/** Forgets every remembered answer (a bench measuring a first read; tests). */
export function clearListMemory(): void {
  answers.clear();
}

function deepFreeze<T>(value: T): T {
  // Bytes (an answer already serialized) cannot be frozen; nothing writes to them once answered.
  if (ArrayBuffer.isView(value)) return value;
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * About what the answer holds in V8's heap (strings at two bytes a character, 16 bytes a value or slot), counted no
 * further than `limit`: a list too large to keep is not walked to its end.
 */
function roughBytes(value: unknown, limit: number): number {
  if (typeof value === "string") return 16 + 2 * value.length;
  // What the bytes keep alive: the whole buffer they are a view of.
  if (ArrayBuffer.isView(value)) return 64 + value.buffer.byteLength;
  if (value === null || typeof value !== "object") return 16;
  let bytes = 32;
  for (const v of Object.values(value)) {
    bytes += 16 + roughBytes(v, limit - bytes);
    if (bytes > limit) break;
  }
  return bytes;
}
