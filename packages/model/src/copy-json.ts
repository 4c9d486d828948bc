/**
 * The JSON array of a `COPY (select ...) TO STDOUT` answer (text format), written byte by byte: each row becomes one
 * object with the given keys, in order. It is what `JSON.stringify(rows.map(...))` would answer, byte for byte, without
 * a string or an object per value: PostgreSQL's rows are read once and the JSON is written once, so the whole list of a
 * 100k-element workspace costs the database's copy and one pass over its bytes.
 *
 * COPY's text format: columns separated by a tab, rows ended by a newline, `\N` for null, and in a value a backslash
 * before a backslash, `n`, `r`, `t`, `b`, `f` or `v` (the control characters and the backslash are the only escapes
 * it writes; every other byte is the value's own UTF-8). JSON.stringify escapes `"` and `\`, writes `\b \t \n \f \r`
 * short and every other code point below U+0020 as `\u00xx`; PostgreSQL's text holds no NUL and no lone surrogate,
 * so nothing else differs.
 */

/**
 * How a column is written: a JSON string (null as null), a JSON number as PostgreSQL wrote it, by `write`, or (an
 * optional key, as a relationship's `access_type`) left out when null and else written by `write`.
 */
export type CopyColumn =
  | { key: string; as: "string" }
  | { key: string; as: "integer" }
  | { key: string; as: "custom"; write: (text: string | null) => string }
  | { key: string; as: "optional"; write: (text: string) => string };

const BACKSLASH = 0x5c;
const TAB = 0x09;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const HEX = new TextEncoder().encode("0123456789abcdef");

/** The byte JSON writes after a backslash for a control character it writes short (0 when it writes `\u00xx`). */
const SHORT = new Uint8Array(32);
SHORT[0x08] = 0x62;
SHORT[0x09] = 0x74;
SHORT[0x0a] = 0x6e;
SHORT[0x0c] = 0x66;
SHORT[0x0d] = 0x72;

/** The byte a COPY escape `\x` stands for, by `x`. */
const UNESCAPE = new Uint8Array(256).map((_, i) => i);
UNESCAPE[0x6e] = 0x0a;
UNESCAPE[0x74] = 0x09;
UNESCAPE[0x72] = 0x0d;
UNESCAPE[0x62] = 0x08;
UNESCAPE[0x66] = 0x0c;
UNESCAPE[0x76] = 0x0b;

const decoder = new TextDecoder();

/** The value COPY escaped in `src[from, to)`, unescaped, as a string. */
function unescapeText(src: Uint8Array, from: number, to: number): string {
  const plain = new Uint8Array(to - from);
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = src[i] as number;
    plain[n++] = c === BACKSLASH ? (UNESCAPE[src[++i] as number] as number) : c;
  }
  return decoder.decode(plain.subarray(0, n));
}

/** Where the value starting at `i` ends: the next tab or newline that no backslash escapes. */
function valueEnd(src: Uint8Array, i: number): number {
  while (i < src.length) {
    const c = src[i] as number;
    if (c === TAB || c === NEWLINE) return i;
    i += c === BACKSLASH ? 2 : 1;
  }
  return i;
}

/**
 * Writes the JSON array (`[{...},...]`) of the rows of COPY's text-format output, fed in pieces as they arrive from the
 * database (a row may be split between pieces), with `columns` in the order the statement selects them; `end()` answers
 * the whole array. Each piece is written as it comes, so this thread's work overlaps the database's on another core.
 * A row with another number of columns throws (the statement and the columns must agree).
 */
export class CopyJsonArray {
  private readonly keys: Uint8Array[];
  private readonly nulls: Uint8Array[];
  private readonly rowBytes: number;
  /** The array so far, in `out[0, at)`; the rest of `out` is room, never read. */
  private out: Uint8Array<ArrayBuffer> = uninitialized(1 << 16);
  private at = 0;
  private rest: Uint8Array = new Uint8Array(0);
  private rows = 0;

  /** The rows written so far. */
  get count(): number {
    return this.rows;
  }

  private readonly columns: readonly CopyColumn[];

  constructor(columns: readonly CopyColumn[]) {
    this.columns = columns;
    this.keys = columns.map((c, i) => bytesOf(`${i === 0 ? "{" : ","}${JSON.stringify(c.key)}:`));
    // A custom column's null is written the same way every time: its text is asked once.
    this.nulls = columns.map((c) => bytesOf(c.as === "custom" ? c.write(null) : c.as === "optional" ? "" : "null"));
    if (columns[0]?.as === "optional") throw new Error("the first column cannot be optional (it opens the object)");
    let rowBytes = 2;
    for (let k = 0; k < columns.length; k++)
      rowBytes += (this.keys[k] as Uint8Array).length + (this.nulls[k] as Uint8Array).length + 2;
    this.rowBytes = rowBytes;
  }

  /** The next piece of COPY's output. */
  push(piece: Uint8Array): void {
    let input = piece;
    if (this.rest.length > 0) {
      input = new Uint8Array(this.rest.length + piece.length);
      input.set(this.rest);
      input.set(piece, this.rest.length);
    }
    const lastNewline = input.lastIndexOf(NEWLINE);
    if (lastNewline === -1) {
      this.rest = input;
      return;
    }
    this.rest = input.slice(lastNewline + 1);
    this.write(input.subarray(0, lastNewline + 1));
  }

  /** The whole JSON array; throws when COPY's output ended inside a row. */
  end(): Buffer {
    if (this.rest.length > 0) throw new Error("COPY answer ended inside a row");
    this.room(2);
    if (this.at === 0) this.out[this.at++] = 0x5b;
    this.out[this.at++] = 0x5d;
    // The room left after the last piece can be many times a small answer, which may be kept in memory: a small
    // answer is copied to its own size (well under a millisecond), a large one is answered where it lies.
    if (this.at < 1 << 20) return Buffer.from(this.out.subarray(0, this.at));
    return Buffer.from(this.out.buffer, 0, this.at);
  }

  /** At least `bytes` of room after `at`: the array grows by doubling, so each byte is moved a few times at most. */
  private room(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const bigger = uninitialized(Math.max(this.out.length * 2, this.at + bytes));
    bigger.set(this.out.subarray(0, this.at));
    this.out = bigger;
  }

  /** Complete rows: every row of `copy` ends with its newline. */
  private write(copy: Uint8Array): void {
    const { columns, keys, nulls } = this;
    // Each row has a separator per column, so it is at least that many bytes long.
    const rows = Math.ceil(copy.length / columns.length);
    // The most these rows can take (a string's byte becomes at most 6: `\u00xx`), so the loops never check room; only
    // a custom column's text, whose length is its own, is checked.
    this.room(copy.length * 6 + rows * this.rowBytes + 1);
    let buf = this.out;
    let at = this.at;
    if (at === 0) buf[at++] = 0x5b;
    let i = 0;
    const length = copy.length;
    while (i < length) {
      if (this.rows++ > 0) buf[at++] = 0x2c;
      for (let k = 0; k < columns.length; k++) {
        const column = columns[k] as CopyColumn;
        const key = keys[k] as Uint8Array;
        const isNull =
          copy[i] === BACKSLASH && copy[i + 1] === 0x4e && (copy[i + 2] === TAB || copy[i + 2] === NEWLINE);
        // An optional column's key is written with its value only.
        if (!isNull || column.as !== "optional") for (let b = 0; b < key.length; b++) buf[at++] = key[b] as number;
        if (isNull) {
          const text = nulls[k] as Uint8Array;
          for (let b = 0; b < text.length; b++) buf[at++] = text[b] as number;
          i += 2;
        } else if (column.as === "string") {
          buf[at++] = QUOTE;
          for (;;) {
            let c = copy[i] as number;
            if (c === TAB || c === NEWLINE) break;
            if (c === BACKSLASH) c = UNESCAPE[copy[++i] as number] as number;
            i++;
            if (c >= 0x20) {
              if (c === QUOTE || c === BACKSLASH) buf[at++] = BACKSLASH;
              buf[at++] = c;
            } else {
              buf[at++] = BACKSLASH;
              const short = SHORT[c] as number;
              if (short) buf[at++] = short;
              else {
                buf[at++] = 0x75;
                buf[at++] = 0x30;
                buf[at++] = 0x30;
                buf[at++] = HEX[c >> 4] as number;
                buf[at++] = HEX[c & 15] as number;
              }
            }
          }
          buf[at++] = QUOTE;
        } else if (column.as === "integer") {
          for (;;) {
            const c = copy[i] as number;
            if (c === TAB || c === NEWLINE) break;
            buf[at++] = c;
            i++;
          }
        } else {
          const end = valueEnd(copy, i);
          const text = bytesOf(column.write(unescapeText(copy, i, end)));
          this.at = at;
          this.room(text.length + (length - i) * 6 + rows * this.rowBytes);
          buf = this.out;
          buf.set(text, at);
          at += text.length;
          i = end;
        }
        // The value's end must be the separator its place calls for: a tab between columns, a newline after the last.
        if ((copy[i] === NEWLINE) !== (k === columns.length - 1)) {
          throw new Error(`COPY answer: a row does not have the ${columns.length} columns expected`);
        }
        i++;
      }
      buf[at++] = 0x7d;
    }
    this.at = at;
  }
}

/**
 * A plain Uint8Array (not a Buffer: one kind of array keeps V8's element access in the loops above monomorphic) over
 * memory that is not zeroed first: every byte answered is written before it is read.
 */
function uninitialized(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.allocUnsafeSlow(size).buffer as ArrayBuffer, 0, size);
}

const encoder = new TextEncoder();
const bytesOf = (text: string): Uint8Array => encoder.encode(text);
