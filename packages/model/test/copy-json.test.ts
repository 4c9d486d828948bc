import { describe, expect, test } from "vitest";
import { type CopyColumn, CopyJsonArray } from "../src/copy-json.ts";

/**
 * The JSON array written from COPY's text format (the whole element list on PostgreSQL) is JSON.stringify's, byte for
 * byte, however the database's output is cut into pieces. Real COPY output of the same values is compared in
 * services/tenant/test/list-json.test.ts; here the text is written as COPY's documentation says it is.
 */
function copyText(rows: (string | number | null)[][]): string {
  const escaped = (v: string) =>
    v.replace(
      /[\\\n\r\t\b\f\v]/g,
      (c) =>
        `\\${({ "\n": "n", "\r": "r", "\t": "t", "\b": "b", "\f": "f", "\v": "v" } as Record<string, string>)[c] ?? "\\"}`,
    );
  return rows.map((r) => `${r.map((v) => (v === null ? "\\N" : escaped(String(v)))).join("\t")}\n`).join("");
}

const columns: CopyColumn[] = [
  { key: "id", as: "string" },
  { key: "name", as: "string" },
  { key: "tags", as: "custom", write: (t) => (t === null ? "{}" : JSON.stringify({ raw: t })) },
  { key: "revision", as: "integer" },
];

const tricky = [
  'quote " and backslash \\ and \\N',
  "\\N",
  "tab\tnewline\nreturn\rback\bform\fvertical\v",
  "controls \u0001\u0007\u001b\u001f and DEL \u007f",
  "Ünïcödé 中文 🚀 \u2028 \u2029",
  "",
  "ends with a backslash \\",
];

function written(text: string, cut: (bytes: Buffer) => Buffer[]) {
  const json = new CopyJsonArray(columns);
  for (const piece of cut(Buffer.from(text))) json.push(piece);
  return json.end().toString("utf8");
}

describe("the JSON array of COPY's text output", () => {
  const rows = tricky.map((name, i) => [`id-${i}`, name, i % 2 ? null : `tag\t${name}`, i + 1]);
  const expected = JSON.stringify(
    rows.map(([id, name, tags, revision]) => ({
      id,
      name,
      tags: tags === null ? {} : { raw: tags },
      revision,
    })),
  );

  test("is JSON.stringify's for every escape COPY writes and every control character JSON escapes", () => {
    expect(written(copyText(rows), (b) => [b])).toBe(expected);
    expect(JSON.parse(expected)[1].name).toBe("\\N");
  });

  test("whatever the pieces: cut at every byte, and byte by byte", () => {
    const text = copyText(rows);
    const bytes = Buffer.from(text);
    for (let at = 0; at <= bytes.length; at++) {
      expect(written(text, (b) => [b.subarray(0, at), b.subarray(at)])).toBe(expected);
    }
    expect(written(text, (b) => [...b].map((x) => Buffer.from([x])))).toBe(expected);
  });

  test("null strings are null; no rows is an empty array", () => {
    expect(written(copyText([["a", null, null, 7]]), (b) => [b])).toBe(
      '[{"id":"a","name":null,"tags":{},"revision":7}]',
    );
    expect(written("", () => [])).toBe("[]");
  });

  test("a row with other columns than the statement's, or an answer cut inside a row, is refused", () => {
    expect(() => written("a\tb\t\\N\n", (b) => [b])).toThrow("a row does not have the 4 columns expected");
    expect(() => written("a\tb\t\\N\t1\t2\n", (b) => [b])).toThrow("a row does not have the 4 columns expected");
    expect(() => written("a\tb\t\\N\t1", (b) => [b])).toThrow("COPY answer ended inside a row");
  });

  test("an optional column is left out, key and all, when null", () => {
    const withOptional: CopyColumn[] = [
      { key: "id", as: "string" },
      { key: "flag", as: "optional", write: (v) => (v === "t" ? "true" : "false") },
      { key: "kind", as: "optional", write: (v) => JSON.stringify(v) },
    ];
    const json = new CopyJsonArray(withOptional);
    json.push(Buffer.from("a\t\\N\tread\nb\tt\t\\N\nc\t\\N\t\\N\n"));
    expect(json.end().toString()).toBe('[{"id":"a","kind":"read"},{"id":"b","flag":true},{"id":"c"}]');
    expect(() => new CopyJsonArray([{ key: "x", as: "optional", write: (v) => v }])).toThrow("cannot be optional");
  });

  test("a large answer grows its buffer and stays exact", () => {
    const many = Array.from({ length: 20_000 }, (_, i) => [
      `e-${i}`,
      `Element "${i}" \\ ${tricky[i % tricky.length]}`,
      null,
      i,
    ]);
    const text = copyText(many);
    const pieces = (b: Buffer) =>
      Array.from({ length: Math.ceil(b.length / 4096) }, (_, k) => b.subarray(k * 4096, (k + 1) * 4096));
    const json = written(text, pieces);
    expect(json).toBe(JSON.stringify(many.map(([id, name, , revision]) => ({ id, name, tags: {}, revision }))));
  });
});
