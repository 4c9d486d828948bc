import type { Rgba } from "@ams/db";

const ENTITY: Record<number, string> = { 38: "&amp;", 60: "&lt;", 62: "&gt;", 34: "&quot;", 39: "&apos;" };

/** Replacement of the character at i, "" to drop it, undefined to keep it (a surrogate pair is kept whole). */
function replacementAt(value: string, i: number): string | undefined {
  const c = value.charCodeAt(i);
  if (c >= 0x20 && c < 0xd800) return ENTITY[c];
  if (c < 0x20) return c === 9 || c === 10 || c === 13 ? undefined : "";
  if (c <= 0xdbff) {
    const next = value.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? undefined : "";
  }
  if (c <= 0xdfff) {
    const prev = value.charCodeAt(i - 1);
    return prev >= 0xd800 && prev <= 0xdbff ? undefined : "";
  }
  return c === 0xfffe || c === 0xffff ? "" : undefined;
}

/**
 * Text or attribute value as XML character data: markup characters become entities, and characters XML cannot
 * carry at all (control characters, lone surrogates, U+FFFE/U+FFFF) are dropped, so no input can break the document.
 */
export function escapeXml(input: string): string {
  const value = typeof input === "string" ? input : String(input ?? "");
  let out = "";
  let last = 0;
  for (let i = 0; i < value.length; i++) {
    const rep = replacementAt(value, i);
    if (rep === undefined) continue;
    out += value.slice(last, i) + rep;
    last = i + 1;
  }
  return last === 0 ? value : out + value.slice(last);
}

/** A text field as a string: rows from JSON or hand-built input may carry anything. */
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** A number for an attribute, to one decimal. */
export const num = (v: number): string => String(Math.round(v * 10) / 10);

const hex = (v: number) => {
  const c = Math.max(0, Math.min(255, Math.round(Number.isFinite(v) ? v : 0)));
  return (c < 16 ? "0" : "") + c.toString(16);
};

/** `#rrggbb` of a style colour; undefined when the colour is missing. */
export function colorOf(c: Rgba | null | undefined): string | undefined {
  if (!c || typeof c !== "object" || typeof c.r !== "number" || typeof c.g !== "number" || typeof c.b !== "number") {
    return undefined;
  }
  return `#${hex(c.r)}${hex(c.g)}${hex(c.b)}`;
}

/**
 * Opacity of a style colour. The exchange format's alpha is a percentage (0..100, archimate3_Diagram.xsd RGBColorType);
 * undefined means opaque.
 */
export function opacityOf(c: Rgba | null | undefined): number | undefined {
  if (!c || typeof c !== "object" || typeof c.a !== "number" || !Number.isFinite(c.a) || c.a >= 100) return undefined;
  return Math.max(0, c.a) / 100;
}

/** A font family from the model, reduced to characters that cannot escape a CSS font list. */
export function fontFamilyOf(name: string | null | undefined, fallback: string): string {
  const clean = name?.replace(/[^\p{L}\p{N} _.-]/gu, "").trim();
  return clean ? `'${clean}', ${fallback}` : fallback;
}
