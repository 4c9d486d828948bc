import { refuse } from "./refusal.ts";

/**
 * Tokens of the read-only Cypher subset. The tokenizer is strict on purpose: anything it does not understand
 * (unicode dashes, unknown escapes, stray characters) is refused rather than guessed, and comments vanish here
 * because the query Neo4j runs is printed from the syntax tree, never passed through.
 */
export type Token =
  | { t: "ident"; v: string; quoted: boolean; pos: number }
  | { t: "string"; v: string; pos: number }
  | { t: "number"; v: string; pos: number }
  | { t: "param"; v: string; pos: number }
  | { t: "sym"; v: string; pos: number }
  | { t: "eof"; v: ""; pos: number };

const SYMBOLS = [
  "..",
  "<>",
  "<=",
  ">=",
  "=~",
  "||",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ".",
  ":",
  "|",
  "&",
  "!",
  "=",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "^",
  ";",
  "$",
];
const ID_START = /[\p{ID_Start}_]/u;
const ID_PART = /[\p{ID_Continue}_]/u;
const NUMBER = /^(?:0x[0-9A-Fa-f][0-9A-Fa-f_]*|0o[0-7][0-7_]*|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)/;
const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
/** Longest query text accepted: explore is for questions, not bulk payloads (those go in parameters). */
export const MAX_QUERY_LENGTH = 20_000;

export function tokenize(text: string): Token[] {
  if (text.length > MAX_QUERY_LENGTH) refuse(`the query is longer than ${MAX_QUERY_LENGTH} characters`);
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charAt(i);
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n" && text[i] !== "\r") i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) refuse("a /* comment */ is not closed", i);
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"') {
      const [value, next] = readString(text, i);
      out.push({ t: "string", v: value, pos: i });
      i = next;
      continue;
    }
    if (c === "`") {
      const [value, next] = readQuoted(text, i);
      out.push({ t: "ident", v: value, quoted: true, pos: i });
      i = next;
      continue;
    }
    if (c >= "0" && c <= "9") {
      const m = NUMBER.exec(text.slice(i, i + 64));
      if (!m) refuse("malformed number", i);
      if (ID_PART.test(text[i + m[0].length] ?? "")) refuse("malformed number", i);
      out.push({ t: "number", v: m[0], pos: i });
      i += m[0].length;
      continue;
    }
    if (c === "$") {
      const start = i;
      i++;
      if (text[i] === "`") {
        const [value, next] = readQuoted(text, i);
        out.push({ t: "param", v: value, pos: start });
        i = next;
        continue;
      }
      let j = i;
      while (j < n && ID_PART.test(text.charAt(j))) j++;
      if (j === i) {
        out.push({ t: "sym", v: "$", pos: start });
        continue;
      }
      out.push({ t: "param", v: text.slice(i, j), pos: start });
      i = j;
      continue;
    }
    if (ID_START.test(c)) {
      let j = i + 1;
      while (j < n && ID_PART.test(text.charAt(j))) j++;
      out.push({ t: "ident", v: text.slice(i, j), quoted: false, pos: i });
      i = j;
      continue;
    }
    const sym = SYMBOLS.find((s) => text.startsWith(s, i));
    if (!sym) refuse(`unexpected character '${describeChar(c)}'`, i);
    out.push({ t: "sym", v: sym, pos: i });
    i += sym.length;
  }
  out.push({ t: "eof", v: "", pos: n });
  return out;
}

function readString(text: string, start: number): [string, number] {
  const quote = text[start];
  let i = start + 1;
  let value = "";
  for (;;) {
    if (i >= text.length) refuse("a string literal is not closed", start);
    const c = text.charAt(i);
    if (c === quote) return [value, i + 1];
    if (c !== "\\") {
      value += c;
      i++;
      continue;
    }
    const e = text[i + 1] ?? "";
    if (e in SIMPLE_ESCAPES) {
      value += SIMPLE_ESCAPES[e];
      i += 2;
    } else if (e === "u" || e === "U") {
      const len = e === "u" ? 4 : 8;
      const hex = text.slice(i + 2, i + 2 + len);
      if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) refuse("malformed unicode escape in a string", i);
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) refuse("unicode escape out of range", i);
      value += String.fromCodePoint(code);
      i += 2 + len;
    } else {
      refuse(`unknown escape '\\${describeChar(e)}' in a string`, i);
    }
  }
}

/** `quoted identifier` with `` for a backtick; backslashes are refused (Neo4j versions differ on their meaning). */
function readQuoted(text: string, start: number): [string, number] {
  let i = start + 1;
  let value = "";
  for (;;) {
    if (i >= text.length) refuse("a `quoted name` is not closed", start);
    const c = text.charAt(i);
    if (c === "`") {
      if (text[i + 1] === "`") {
        value += "`";
        i += 2;
        continue;
      }
      if (value.length === 0) refuse("an empty `quoted name`", start);
      return [value, i + 1];
    }
    if (c === "\\") refuse("backslashes are not allowed in `quoted names`", i);
    if (c < " " || c === "\u007f") refuse("control characters are not allowed in `quoted names`", i);
    value += c;
    i++;
  }
}

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code < 0x20 || code > 0x7e ? `U+${code.toString(16).toUpperCase().padStart(4, "0")}` : c;
}
