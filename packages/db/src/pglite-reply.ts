import { messages } from "@electric-sql/pglite";

/** A column of a statement's rows: its name and type, as PostgreSQL described it. */
export type Column = { name: string; dataTypeID: number };
/** Reads a column's text as its value (PGlite's parser for the type); undefined keeps the text. */
export type ColumnParser = ((value: string, type: number) => unknown) | undefined;
/** What one statement answered, in the shape of PGlite's query() results. */
export type Reply = {
  rows: unknown[];
  fields: Column[];
  command?: string;
  affectedRows: number;
  rowCount?: number;
};

/** Commands whose tag counts rows the statement changed (PGlite's affectedRows). */
const CHANGING = new Set(["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"]);

/** The fields of an ErrorResponse, by their code (PostgreSQL's protocol, "Error and Notice Message Fields"). */
const ERROR_FIELDS: Record<string, string> = {
  S: "severity",
  C: "code",
  D: "detail",
  H: "hint",
  P: "position",
  p: "internalPosition",
  q: "internalQuery",
  W: "where",
  s: "schema",
  t: "table",
  c: "column",
  d: "dataType",
  n: "constraint",
  F: "file",
  L: "line",
  R: "routine",
};

/**
 * The backend's answer to Bind, Execute and Sync of a statement whose columns are known (described when it was
 * parsed), read straight from the protocol's bytes: the rows with each column's parser, the command's tag, and a
 * refusal as the DatabaseError PGlite throws (the same class and fields). Notifications found on the way are handed
 * to `notify` at once, before the reply is returned. PGlite's own reader copies every column's bytes into a new
 * ArrayBuffer before decoding them; this one decodes them in place.
 */
export function readReply(
  bytes: Uint8Array,
  columns: readonly Column[],
  parsers: readonly ColumnParser[],
  rowMode: "array" | "object" | undefined,
  notify: (channel: string, payload: string) => void,
): { reply: Reply } | { error: Error } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  const reply: Reply = {
    rows: [],
    fields: columns.map((c) => ({ name: c.name, dataTypeID: c.dataTypeID })),
    affectedRows: 0,
  };
  let done = false;
  let error: Error | undefined;
  const cstring = (at: number): [string, number] => {
    const end = buf.indexOf(0, at);
    return [buf.toString("utf8", at, end), end + 1];
  };
  for (let at = 0; at + 5 <= buf.length; ) {
    const type = buf[at];
    const end = at + 1 + buf.readInt32BE(at + 1);
    let pos = at + 5;
    switch (type) {
      case 0x44: {
        // DataRow: the columns' values as text (-1: null).
        if (done || error) break;
        const count = buf.readInt16BE(pos);
        pos += 2;
        // The row's bytes are read as Latin-1 once (one character per byte, so offsets match), and a value in ASCII
        // (most are: ids, names, numbers) is a slice of that text, the same as its UTF-8; any other value is decoded
        // as UTF-8 on its own. Decoding every value on its own cost ~0.28 us each, several times as much.
        const row = buf.toString("latin1", pos, end);
        const base = pos;
        const values: unknown[] = new Array(count);
        for (let i = 0; i < count; i++) {
          const length = buf.readInt32BE(pos);
          pos += 4;
          if (length < 0) {
            values[i] = null;
            continue;
          }
          let ascii = true;
          for (let b = pos; b < pos + length; b++) {
            if ((buf[b] as number) > 0x7f) {
              ascii = false;
              break;
            }
          }
          const text = ascii ? row.substring(pos - base, pos - base + length) : buf.toString("utf8", pos, pos + length);
          pos += length;
          const parse = parsers[i];
          values[i] = parse ? parse(text, columns[i]?.dataTypeID ?? 0) : text;
        }
        if (rowMode === "array") reply.rows.push(values);
        else {
          const row: Record<string, unknown> = {};
          for (let i = 0; i < count; i++) row[columns[i]?.name ?? `?column?${i}`] = values[i];
          reply.rows.push(row);
        }
        break;
      }
      case 0x43: {
        // CommandComplete: "SELECT 3", "INSERT 0 1", "UPDATE 2"…
        if (done || error) break;
        const [tag] = cstring(pos);
        const words = tag.split(" ");
        const command = words[0] ?? "";
        const count = Number.parseInt(words[words.length - 1] ?? "", 10);
        reply.command = command;
        if (CHANGING.has(command) && !Number.isNaN(count)) reply.affectedRows += count;
        if (!Number.isNaN(count)) reply.rowCount = count;
        done = true;
        break;
      }
      case 0x45: {
        // ErrorResponse: the first one is the statement's refusal.
        if (error) break;
        const fields: Record<string, string> = {};
        let message = "";
        while (pos < end && buf[pos] !== 0) {
          const code = String.fromCharCode(buf[pos] ?? 0);
          const [value, next] = cstring(pos + 1);
          pos = next;
          if (code === "M") message = value;
          else {
            const name = ERROR_FIELDS[code];
            if (name) fields[name] = value;
          }
        }
        error = Object.assign(new messages.DatabaseError(message, end - at, "error"), fields);
        break;
      }
      case 0x41: {
        // NotificationResponse: the backend's pid, the channel, the payload.
        const [channel, next] = cstring(pos + 4);
        const [payload] = cstring(next);
        notify(channel, payload);
        break;
      }
      default:
        // ParseComplete, BindComplete, CloseComplete, NoData, EmptyQueryResponse, PortalSuspended, ReadyForQuery,
        // NoticeResponse and ParameterStatus say nothing the caller reads.
        break;
    }
    at = end;
  }
  return error ? { error } : { reply };
}
