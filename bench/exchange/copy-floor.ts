import net from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { MODEL_TABLE_ORDER, MODEL_TABLES, type ModelDocument } from "@ams/model";
import postgres from "postgres";
import { timed } from "./timing.ts";

/** The import's floor: the same rows streamed into the same tables with COPY. */
export const TABLE_NAMES = MODEL_TABLE_ORDER.map((key) => MODEL_TABLES[key].name);

/** Document collection, table and column -> row field, in foreign-key order: the import's own mapping. */
export const COPY_TABLES = MODEL_TABLE_ORDER.map(
  (key) => [key, MODEL_TABLES[key].name, MODEL_TABLES[key].columns as Record<string, string>] as const,
);

export const copyField = (v: unknown): string => {
  if (v === null || v === undefined) return "\\N";
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return /[\\\t\n\r]/.test(s)
    ? s.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"))
    : s;
};

/** The floor: the document's rows streamed with COPY (text format) into the same tables, in one transaction. */
export async function copyModel(pg: postgres.Sql, ws: string, doc: ModelDocument) {
  await pg.begin(async (tx) => {
    for (const [key, table, columns] of COPY_TABLES) {
      const rows = doc[key] as unknown as Record<string, unknown>[];
      if (rows.length === 0) continue;
      const fields = Object.values(columns);
      const lines = function* () {
        let batch = "";
        for (const row of rows) {
          let line = ws;
          for (const f of fields) line += "\t" + copyField(row[f]);
          batch += line + "\n";
          if (batch.length > 1 << 20) {
            yield batch;
            batch = "";
          }
        }
        if (batch) yield batch;
      };
      const target = await tx
        .unsafe(`copy ${table} (workspace_id, ${Object.keys(columns).join(", ")}) from stdin`)
        .writable();
      await pipeline(Readable.from(lines()), target);
    }
  });
}

/**
 * A postgres.js client on its own new connection with Nagle's algorithm off: postgres.js writes a COPY's last data
 * and its CopyDone as two small packets, and with Nagle on the second waits for the server's delayed ACK (40 ms per
 * table), which would make the floor slower than the import it bounds.
 */
export async function copyClient(url: string) {
  const target = new URL(url);
  // `socket` is documented in postgres.js's README ("Custom socket") but missing from its type declarations.
  const options = {
    max: 1,
    onnotice: () => {},
    socket: () =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect(Number(target.port || 5432), target.hostname);
        socket.setNoDelay(true);
        socket.once("connect", () => resolve(socket)).once("error", reject);
      }),
  };
  const pg = postgres(url, options as postgres.Options<Record<string, never>>);
  await pg`select 1`;
  return pg;
}

/** COPY of the document into an empty workspace on a fresh connection (FK-check plans made now, as the import's are). */
export async function timedCopy(url: string, ws: string, doc: ModelDocument): Promise<number> {
  const pg = await copyClient(url);
  try {
    return await timed(() => copyModel(pg, ws, doc));
  } finally {
    await pg.end({ timeout: 5 });
  }
}
