import type { LangString } from "@ams/db";
import type { PropertyValueRow } from "./document.ts";

/**
 * Output helpers: the document is built as one array of string pieces joined once. Text and attribute values are
 * escaped only when a fast test says they need it. Characters XML 1.0 cannot carry (controls other than tab, line
 * feed and carriage return, U+FFFE, U+FFFF) are stripped; lone surrogates become U+FFFD.
 */

// biome-ignore-start lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 cannot carry
const TEXT_TEST = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const TEXT_ALL = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ATTR_TEST = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ATTR_ALL = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// biome-ignore-end lint/suspicious/noControlCharactersInRegex: see above

const REPLACEMENT: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  // Escaped so that line-end and attribute-value normalization give back exactly these characters.
  "\r": "&#13;",
  "\n": "&#10;",
  "\t": "&#9;",
};
const replace = (c: string) => REPLACEMENT[c] ?? "";

export function escapeText(value: string): string {
  const s = value.isWellFormed() ? value : value.toWellFormed();
  return TEXT_TEST.test(s) ? s.replace(TEXT_ALL, replace) : s;
}

export function escapeAttr(value: string): string {
  const s = value.isWellFormed() ? value : value.toWellFormed();
  return ATTR_TEST.test(s) ? s.replace(ATTR_ALL, replace) : s;
}

/**
 * Joins the pieces written so far into one chunk once there are many. Called only between complete items (never
 * while a start tag may still be collapsed to "/>"), it keeps the piece array small: one array of millions of
 * pieces joined at the end costs several times more, mostly in garbage collection.
 */
export function spill(out: string[], chunks: string[]): void {
  if (out.length >= 4096) {
    chunks.push(out.join(""));
    out.length = 0;
  }
}

/** "\n" plus two spaces per level, precomputed. */
const INDENTS: string[] = [];
export function indent(level: number): string {
  for (let k = INDENTS.length; k <= level; k++) INDENTS.push(`\n${"  ".repeat(k)}`);
  return INDENTS[level] ?? `\n${"  ".repeat(level)}`;
}

// xml:lang is an xs:language: an invalid tag would fail validation, so it is repaired ("en_US") or left out.
const LANGUAGE = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;
const langAttrs = new Map<string, string>();
function langAttr(lang: string | null): string {
  if (lang === null) return "";
  let out = langAttrs.get(lang);
  if (out === undefined) {
    const repaired = lang.trim().replace(/_/g, "-");
    out = lang === "" || LANGUAGE.test(repaired) ? ` xml:lang="${repaired}"` : "";
    if (langAttrs.size < 1000) langAttrs.set(lang, out);
  }
  return out;
}

/** When a LangString field is written: "always" (required by the XSD), "set" (non-null) or "nonEmpty". */
export type Presence = "always" | "set" | "nonEmpty";

/**
 * Writes a multilingual field: every language from i18n when present (the plain column wins for the first value,
 * since it is what the API edits), else the plain value alone.
 */
export function writeLangs(
  out: string[],
  ind: string,
  tag: string,
  plain: string | null | undefined,
  langs: LangString[] | undefined,
  presence: Presence,
): void {
  if (langs !== undefined && langs.length > 0) {
    for (const [k, lang] of langs.entries()) {
      const value = k === 0 && plain != null ? plain : lang.value;
      out.push(ind, "<", tag, langAttr(lang.lang), ">", escapeText(value), "</", tag, ">");
    }
    return;
  }
  if (plain == null) {
    if (presence === "always") out.push(ind, "<", tag, "></", tag, ">");
    return;
  }
  if (plain === "" && presence === "nonEmpty") return;
  out.push(ind, "<", tag, ">", escapeText(plain), "</", tag, ">");
}

/** Rows sorted by ord (ties by id, so the output never depends on the order rows were read in). */
export function inOrder<T extends { ord: number; id?: string | number }>(rows: T[]): T[] {
  let sorted = true;
  for (let k = 1; k < rows.length && sorted; k++) if ((rows[k - 1]?.ord ?? 0) >= (rows[k]?.ord ?? 0)) sorted = false;
  if (sorted) return rows;
  return rows.slice().sort((a, b) => a.ord - b.ord || (String(a.id) < String(b.id) ? -1 : 1));
}

export function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [row]);
    else list.push(row);
  }
  return groups;
}

export const clampInt = (value: number, min: number, max: number) =>
  Math.min(max, Math.max(min, Math.round(Number.isFinite(value) ? value : min)));

export type PropertiesByOwner = Map<string, PropertyValueRow[]>;

export function writeProperties(out: string[], level: number, values: PropertyValueRow[] | undefined): void {
  if (values === undefined || values.length === 0) return;
  const ind = indent(level + 1);
  out.push(indent(level), "<properties>");
  for (const p of values) {
    out.push(ind, '<property propertyDefinitionRef="', escapeAttr(p.definitionId), '">');
    writeLangs(out, indent(level + 2), "value", p.value, p.i18n?.value, "always");
    out.push(ind, "</property>");
  }
  out.push(indent(level), "</properties>");
}
