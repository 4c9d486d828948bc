import { AppError, type FieldError } from "@ams/shared";

/**
 * Archi's CSV files as its importer reads them (Apache Commons CSV, CSVFormat.DEFAULT): fields separated by a
 * comma (Archi can also write a semicolon or a tab, which its importer tries in turn), optionally double-quoted,
 * a quote inside a quoted field doubled, line breaks allowed inside quotes, UTF-8 with or without a BOM.
 */

export const ELEMENTS_HEADER = ["ID", "Type", "Name", "Documentation", "Specialization"] as const;
export const RELATIONS_HEADER = ["ID", "Type", "Name", "Documentation", "Source", "Target", "Specialization"] as const;
export const PROPERTIES_HEADER = ["ID", "Key", "Value"] as const;

/** One field may hold this many characters (a long documentation fits; a 10 MB blob is refused as it is met). */
export const MAX_FIELD_CHARS = 1024 * 1024;

export type CsvFileKind = "elements" | "relations" | "properties";

/** A record of a file: its fields, its record number (the header is row 1) and the line it starts on. */
export type CsvRecord = { fields: string[]; row: number; line: number };

export type CsvTable = { file: string; header: string[]; records: CsvRecord[] };

/** Where in a file something is, worded for a person: "elements.csv row 3 (line 5), column Name". */
export function locate(file: string, row: number, line: number, column?: string): string {
  return `${file} row ${row} (line ${line})${column ? `, column ${column}` : ""}`;
}

/** A 422 naming the file, row and column; nothing of the import is written. */
export function csvError(where: string, message: string): AppError {
  const errors: FieldError[] = [{ path: where, message }];
  return new AppError("VALIDATION", `${where}: ${message}`, { errors });
}

const QUOTE = 34;
const CR = 13;
const LF = 10;

/**
 * UTF-8 without its BOM. Invalid UTF-8 is refused naming the row and column where the first bad byte sits (Archi
 * reads the files as UTF-8 only; a file saved as Windows-1252 would otherwise come in with replacement characters).
 */
export function decodeCsv(file: string, bytes: Uint8Array): string {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const body = bytes.subarray(start);
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const bad = firstInvalidUtf8(body);
    const before = new TextDecoder("utf-8").decode(body.subarray(0, bad));
    const at = positionAt(before);
    throw csvError(
      locate(file, at.row, at.line, at.column),
      `the file is not valid UTF-8 (byte 0x${(body[bad] ?? 0).toString(16).padStart(2, "0")} at offset ${bad + start}); save it as UTF-8 (Archi's export writes UTF-8)`,
    );
  }
}

/** Offset of the first byte that does not begin or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i] ?? 0;
    let n = 0;
    let min = 0;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf) [n, min] = [1, 0x80];
    else if (c >= 0xe0 && c <= 0xef) [n, min] = [2, 0x800];
    else if (c >= 0xf0 && c <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return b.length;
}

/** Row, line and column number of the end of a text prefix (a tolerant parse: an open quote is fine). */
function positionAt(prefix: string): { row: number; line: number; column: string } {
  let row = 1;
  let line = 1;
  let field = 1;
  let quoted = false;
  for (let i = 0; i < prefix.length; i++) {
    const c = prefix.charCodeAt(i);
    if (c === LF) line++;
    if (c === QUOTE) quoted = !quoted;
    else if (!quoted && (c === 44 || c === 59 || c === 9)) field++;
    else if (!quoted && c === LF) {
      row++;
      field = 1;
    }
  }
  return { row, line, column: String(field) };
}

/** The delimiter the header uses: what follows its first field ("ID"), as Archi's importer accepts , ; or tab. */
function delimiterOf(text: string): number {
  let i = 0;
  if (text.charCodeAt(0) === QUOTE) {
    const end = text.indexOf('"', 1);
    i = end === -1 ? text.length : end + 1;
  } else {
    while (i < text.length && !",;\t\r\n".includes(text[i] ?? "")) i++;
  }
  const c = text.charCodeAt(i);
  return c === 59 || c === 9 ? c : 44;
}

/**
 * All records of a CSV text. Refuses, naming row and column: a quoted field left open, characters between a closing
 * quote and the delimiter (Commons CSV's "invalid char between encapsulated token and delimiter"), a field longer
 * than MAX_FIELD_CHARS. Column names come from `header` (the expected header) when the file's own is not read yet.
 */
export function parseCsv(file: string, text: string, header: readonly string[]): CsvTable {
  const delimiter = delimiterOf(text);
  const records: CsvRecord[] = [];
  const n = text.length;
  let pos = 0;
  let line = 1;
  let row = 1;
  const columnName = (index: number) => header[index] ?? String(index + 1);
  while (pos < n) {
    const fields: string[] = [];
    const startLine = line;
    for (;;) {
      let value: string;
      if (text.charCodeAt(pos) === QUOTE) {
        // Quoted: jump from quote to quote; a doubled quote is one quote of the value.
        let from = pos + 1;
        let parts: string[] | null = null;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q === -1) {
            throw csvError(
              locate(file, row, startLine, columnName(fields.length)),
              "a quoted field is never closed (unbalanced quotes)",
            );
          }
          if (q - pos > MAX_FIELD_CHARS) throw tooLong(file, row, startLine, columnName(fields.length));
          if (text.charCodeAt(q + 1) === QUOTE) {
            parts ??= [];
            parts.push(text.slice(from, q + 1));
            from = q + 2;
            continue;
          }
          const last = text.slice(from, q);
          value = parts ? parts.join("") + last : last;
          pos = q + 1;
          break;
        }
        for (let k = value.indexOf("\n"); k !== -1; k = value.indexOf("\n", k + 1)) line++;
        const c = text.charCodeAt(pos);
        if (pos < n && c !== delimiter && c !== CR && c !== LF) {
          throw csvError(
            locate(file, row, startLine, columnName(fields.length)),
            "characters after a closing quote (a quote inside a quoted field must be doubled)",
          );
        }
      } else {
        let end = pos;
        while (end < n) {
          const c = text.charCodeAt(end);
          if (c === delimiter || c === CR || c === LF) break;
          end++;
        }
        if (end - pos > MAX_FIELD_CHARS) throw tooLong(file, row, startLine, columnName(fields.length));
        value = text.slice(pos, end);
        pos = end;
      }
      fields.push(value);
      const c = text.charCodeAt(pos);
      if (pos < n && c === delimiter) {
        pos++;
        continue;
      }
      if (c === CR) pos++;
      if (text.charCodeAt(pos) === LF) pos++;
      line++;
      break;
    }
    // Commons CSV skips empty lines.
    if (!(fields.length === 1 && fields[0] === "")) records.push({ fields, row, line: startLine });
    row++;
  }
  const [first, ...rest] = records;
  return { file, header: first?.fields ?? [], records: rest };
}

function tooLong(file: string, row: number, line: number, column: string) {
  return csvError(
    locate(file, row, line, column),
    `a field is longer than ${MAX_FIELD_CHARS / 1024 / 1024} MiB of text; nothing was imported`,
  );
}

/** A cell a spreadsheet would run as a formula (OWASP CSV injection): =, +, -, @ at its start. */
export const FORMULA_START = /^[=+\-@]/;

/**
 * A cell refused on import as a formula: one starting with = or @, or with + or - followed by something a spreadsheet
 * would evaluate. Text that only starts with a dash or plus (a "- item" list in documentation, "-" alone, a signed
 * number such as -5 or +1.5) is ordinary model text and imports as it is; export still neutralises all of them.
 */
export const FORMULA_LOOKING = /^(?:[=@]|[+-](?!\s|$|\d+(?:[.,]\d+)?$))/;

/**
 * A field as Archi writes it: always quoted, quotes doubled. A value a spreadsheet would run as a formula gets a
 * leading single quote (OWASP's advice); the import takes that quote off again, so a round trip keeps the value.
 */
export function quoteField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.includes('"') ? safe.replaceAll('"', '""') : safe}"`;
}

/** One line of quoted fields (no line end). */
export function csvLine(fields: readonly string[]): string {
  return fields.map(quoteField).join(",");
}
