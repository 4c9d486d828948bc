import type { TableData } from "../api/types.ts";

export type TableKind = TableData["kind"];
type Value = string | number | boolean;

/** What a column edits: a field of the row, a property (by definition id), or nothing (source, target). */
export type Edit =
  | { field: "name" | "documentation" | "type" }
  | { field: "property"; definition: string; name: string; type: string; allowed: string[] | null }
  | null;

export type Column = { key: string; label: string; width: number; edit: Edit; text(row: number): string };

/**
 * The table as the page holds it: the server's columns plus each property as a dense array (row → value), so a
 * cell, a filter and a sort read one array slot.
 */
export type Table = {
  data: TableData;
  props: { id: string; name: string; type: string; allowed: string[] | null; values: (Value | undefined)[] }[];
  rowOf: Map<string, number>;
};

export function buildTable(data: TableData): Table {
  const props = data.properties.map((p) => {
    const values = new Array<Value | undefined>(data.count);
    p.rows.forEach((row, i) => {
      values[row] = p.values[i];
    });
    return { id: p.id, name: p.name, type: p.type, allowed: p.allowed_values, values };
  });
  const rowOf = new Map<string, number>();
  data.id.forEach((id, i) => {
    rowOf.set(id, i);
  });
  return { data, props, rowOf };
}

const text = (v: Value | null | undefined) => (v === undefined || v === null ? "" : String(v));

/** Every column the table can show, in order: type, name, (source, target,) documentation, then each property. */
export function columnsOf(table: Table): Column[] {
  const d = table.data;
  const cols: Column[] = [
    { key: "type", label: "Type", width: 190, edit: { field: "type" }, text: (r) => d.types[d.type[r] ?? 0] ?? "" },
    { key: "name", label: "Name", width: 240, edit: { field: "name" }, text: (r) => d.name[r] ?? "" },
  ];
  if (d.kind === "relationships") {
    cols.push(
      { key: "source", label: "Source", width: 200, edit: null, text: (r) => d.source_name?.[r] ?? "" },
      { key: "target", label: "Target", width: 200, edit: null, text: (r) => d.target_name?.[r] ?? "" },
    );
  }
  cols.push({
    key: "documentation",
    label: "Documentation",
    width: 300,
    edit: { field: "documentation" },
    text: (r) => text(d.documentation[r]),
  });
  for (const p of table.props) {
    cols.push({
      key: `p:${p.id}`,
      label: p.name,
      width: 160,
      edit: { field: "property", definition: p.id, name: p.name, type: p.type, allowed: p.allowed },
      text: (r) => text(p.values[r]),
    });
  }
  return cols;
}

export type Sort = { key: string; desc: boolean } | null;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/**
 * The rows to show, in order: those whose type is `type` (if given) and where some shown column contains `query`
 * (case-insensitive), sorted by one column. 100k rows filter and sort in the page in well under a second, which is
 * why the table loads the whole model once (README "Table view").
 */
export function visibleRows(table: Table, columns: Column[], query: string, type: string, sort: Sort): Int32Array {
  const d = table.data;
  const typeIndex = type ? d.types.indexOf(type) : -1;
  const needle = query.trim().toLowerCase();
  const out = new Int32Array(d.count);
  let n = 0;
  for (let r = 0; r < d.count; r++) {
    if (type && d.type[r] !== typeIndex) continue;
    if (needle && !columns.some((c) => c.text(r).toLowerCase().includes(needle))) continue;
    out[n++] = r;
  }
  const rows = out.slice(0, n);
  const col = sort ? columns.find((c) => c.key === sort.key) : undefined;
  if (!sort || !col) return rows;
  const keys = new Array<string>(d.count);
  for (const r of rows) keys[r] = col.text(r);
  const sign = sort.desc ? -1 : 1;
  // Empty cells last whichever the direction, as spreadsheets do.
  rows.sort((a, b) => {
    const x = keys[a] ?? "";
    const y = keys[b] ?? "";
    if (x === "" || y === "") return x === y ? a - b : x === "" ? 1 : -1;
    return sign * collator.compare(x, y) || a - b;
  });
  return rows;
}

/**
 * The cells of a block copied from a spreadsheet: rows by newline, cells by tab, with Excel's quoting (a cell in
 * double quotes may hold tabs, newlines and doubled quotes). A trailing newline ends the block, not a row.
 */
export function parseTsv(input: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let i = 0;
  const s = input.replace(/\r\n?/g, "\n");
  let atCellStart = true;
  while (i < s.length) {
    const ch = s[i] as string;
    if (atCellStart && ch === '"') {
      const end = closingQuote(s, i + 1);
      if (end !== -1 && (end + 1 === s.length || s[end + 1] === "\t" || s[end + 1] === "\n")) {
        cell = s.slice(i + 1, end).replace(/""/g, '"');
        i = end + 1;
        atCellStart = false;
        continue;
      }
    }
    atCellStart = false;
    if (ch === "\t") {
      row.push(cell);
      cell = "";
      atCellStart = true;
    } else if (ch === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      atCellStart = true;
    } else cell += ch;
    i++;
  }
  if (!atCellStart || cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

function closingQuote(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] !== '"') continue;
    if (s[i + 1] === '"') i++;
    else return i;
  }
  return -1;
}

/** Cells as a spreadsheet takes them: tab-separated, a cell with a tab, newline or quote quoted. */
export function toTsv(rows: string[][]): string {
  const cell = (v: string) => (/[\t\n"]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return rows.map((r) => r.map(cell).join("\t")).join("\n");
}

/** A typed cell as the bulk verb takes it: empty removes a property value; the server checks the type. */
export function cellValue(edit: Edit, raw: string): string | null {
  if (edit?.field === "property") return raw.trim() === "" ? null : raw;
  if (edit?.field === "documentation") return raw === "" ? null : raw;
  return raw;
}

/** The bulk-edit row of one cell: `{ id, name }`, `{ id, properties: { Owner: "x" } }`... */
export function rowPatch(edit: Edit, id: string, raw: string): Record<string, unknown> | null {
  if (!edit) return null;
  const value = cellValue(edit, raw);
  if (edit.field === "property") return { id, properties: { [edit.name]: value } };
  return { id, [edit.field]: value };
}

/** Merges cell patches of the same row (a pasted block spans several columns of each row). */
export function mergePatches(patches: Record<string, unknown>[]): Record<string, unknown>[] {
  const byId = new Map<string, Record<string, unknown>>();
  for (const p of patches) {
    const id = p.id as string;
    const prev = byId.get(id);
    if (!prev) {
      byId.set(id, { ...p });
      continue;
    }
    const props = { ...(prev.properties as object | undefined), ...(p.properties as object | undefined) };
    Object.assign(prev, p, Object.keys(props).length ? { properties: props } : {});
  }
  return [...byId.values()];
}
