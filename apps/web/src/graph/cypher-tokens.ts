import { CYPHER_KEYWORDS } from "./schema.ts";

export type TokenKind = "keyword" | "string" | "number" | "comment" | "label" | "param" | "property" | "text";
export type Token = { kind: TokenKind; text: string };

const KEYWORDS = new Set(CYPHER_KEYWORDS);
const PATTERN =
  /(\/\/[^\n]*)|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(:\s*`[^`]*`?|:\s*[A-Za-z_][A-Za-z0-9_]*)|(\$[A-Za-z_][A-Za-z0-9_]*)|(\.[A-Za-z_][A-Za-z0-9_]*)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)/g;

/** Splits Cypher into tokens for highlighting; the concatenated texts are exactly the input. */
export function tokenize(source: string): Token[] {
  const out: Token[] = [];
  let last = 0;
  for (const m of source.matchAll(PATTERN)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ kind: "text", text: source.slice(last, at) });
    const [text] = m;
    let kind: TokenKind = "text";
    if (m[1]) kind = "comment";
    else if (m[2]) kind = "string";
    else if (m[3]) kind = "label";
    else if (m[4]) kind = "param";
    else if (m[5]) kind = "property";
    else if (m[6]) kind = "number";
    else if (m[7] && KEYWORDS.has(text.toUpperCase())) kind = "keyword";
    out.push({ kind, text });
    last = at + text.length;
  }
  if (last < source.length) out.push({ kind: "text", text: source.slice(last) });
  return out;
}

export type CompletionContext = { kind: "label" | "property" | "keyword"; prefix: string; start: number };

/** What is being typed at the caret: a label or relationship type after ':', a property after '.', else a word. */
export function completionAt(source: string, caret: number): CompletionContext | null {
  const before = source.slice(0, caret);
  const label = /:\s*`?([A-Za-z0-9_]*)$/.exec(before);
  if (label) return { kind: "label", prefix: label[1] ?? "", start: caret - (label[1]?.length ?? 0) };
  const prop = /[A-Za-z0-9_)]\.([A-Za-z0-9_]*)$/.exec(before);
  if (prop) return { kind: "property", prefix: prop[1] ?? "", start: caret - (prop[1]?.length ?? 0) };
  const word = /(?:^|[^A-Za-z0-9_$.:])([A-Za-z]{2,})$/.exec(before);
  if (word) return { kind: "keyword", prefix: word[1] ?? "", start: caret - (word[1]?.length ?? 0) };
  return null;
}
