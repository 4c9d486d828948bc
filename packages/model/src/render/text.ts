/**
 * Text measurement without a font engine: advance widths of a Helvetica/Arial-like face in em, by character
 * class (our own rounding), plus a small margin so wrapped text stays inside its box in common UI fonts.
 */
const ASCII_WIDTHS = new Float32Array(128).fill(0.6);
const classes: [string, number][] = [
  ["ijl", 0.23],
  [" !',./:;I[]\\|ft`", 0.28],
  ['r()-{}"*', 0.34],
  ["cksvxyzJ", 0.5],
  ["abdeghnopqu0123456789$#_?L", 0.56],
  ["+<=>~^", 0.59],
  ["FTZ", 0.62],
  ["ABEKPSVXY&", 0.67],
  ["CDHNRUw", 0.73],
  ["GOQ", 0.78],
  ["Mm", 0.84],
  ["%", 0.89],
  ["W", 0.95],
  ["@", 1.02],
];
for (const [chars, width] of classes) for (const ch of chars) ASCII_WIDTHS[ch.charCodeAt(0)] = width * 1.04;

/** Advance of one character in em. Wide (CJK, emoji) characters count as a full em. */
function charWidth(code: number): number {
  if (code < 128) return ASCII_WIDTHS[code] ?? 0.6;
  if (code >= 0x2e80) return 1;
  return 0.62;
}

export function textWidth(text: string, fontPx: number, bold: boolean): number {
  let em = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xdc00 && code <= 0xdfff) continue; // low surrogate: counted with its pair
    em += charWidth(code);
  }
  return em * fontPx * (bold ? 1.08 : 1);
}

export type TextMetrics = { fontPx: number; bold: boolean };

const ELLIPSIS = "\u2026";

/** Splits a word that is wider than `width` into pieces that fit (at least one character each). */
function hardBreak(word: string, width: number, m: TextMetrics): string[] {
  const pieces: string[] = [];
  let start = 0;
  let w = 0;
  const scale = m.fontPx * (m.bold ? 1.08 : 1);
  for (let i = 0; i < word.length; i++) {
    const cw = charWidth(word.charCodeAt(i)) * scale;
    if (w + cw > width && i > start) {
      pieces.push(word.slice(start, i));
      start = i;
      w = 0;
    }
    w += cw;
  }
  pieces.push(word.slice(start));
  return pieces;
}

/** Shortens a line until it and an ellipsis fit in `width`. */
function withEllipsis(line: string, width: number, m: TextMetrics): string {
  let text = line.trimEnd();
  while (text.length > 0 && textWidth(text + ELLIPSIS, m.fontPx, m.bold) > width) text = text.slice(0, -1).trimEnd();
  return text + ELLIPSIS;
}

/** Words of each paragraph with their widths, measured once and wrapped as often as the layout needs. */
export type PreparedText = { paragraphs: { words: string[]; widths: number[] }[]; space: number; m: TextMetrics };

const isBreak = (c: number) => c === 10 || c === 13;
const isSpace = (c: number) => c === 32 || c === 9 || c === 12 || c === 11 || c === 0xa0;

export function prepareText(text: string, m: TextMetrics): PreparedText {
  const scale = m.fontPx * (m.bold ? 1.08 : 1);
  const paragraphs: PreparedText["paragraphs"] = [];
  let words: string[] = [];
  let widths: number[] = [];
  let start = -1;
  let em = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (isBreak(c) || isSpace(c)) {
      if (start >= 0) {
        words.push(text.slice(start, i));
        widths.push(em * scale);
        start = -1;
        em = 0;
      }
      if (isBreak(c)) {
        if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
        paragraphs.push({ words, widths });
        words = [];
        widths = [];
      }
      continue;
    }
    if (start < 0) start = i;
    if (c < 0xdc00 || c > 0xdfff) em += charWidth(c);
  }
  return { paragraphs, space: charWidth(32) * scale, m };
}

/**
 * Greedy word wrap. Breaks on white space, keeps explicit line breaks, hard-breaks words wider than a line,
 * and ends with an ellipsis when more than `maxLines` lines would be needed.
 * `widthOf(i)` is the room for line i (lines beside an icon are narrower).
 */
export function wrapText(
  text: string | PreparedText,
  widthOf: (line: number) => number,
  maxLines: number,
  m: TextMetrics,
): string[] {
  const lines: string[] = [];
  if (maxLines < 1) return lines;
  const prepared = typeof text === "string" ? prepareText(text, m) : text;
  const { paragraphs, space } = prepared;
  let overflow = false;
  outer: for (const [p, { words, widths }] of paragraphs.entries()) {
    let line = "";
    let lineW = 0;
    for (const [k, word] of words.entries()) {
      let ww = widths[k] ?? 0;
      const room = widthOf(lines.length);
      if (line && lineW + space + ww <= room) {
        line += " " + word;
        lineW += space + ww;
        continue;
      }
      if (line) {
        lines.push(line);
        if (lines.length >= maxLines) {
          overflow = true;
          break outer;
        }
      }
      // Beside the icon a line is narrower: a word that fits a later line moves there instead of being split.
      if (ww > widthOf(lines.length)) {
        for (let j = lines.length + 1; j < maxLines; j++) {
          if (ww <= widthOf(j)) {
            while (lines.length < j) lines.push("");
            break;
          }
        }
      }
      line = word;
      lineW = ww;
      if (ww > widthOf(lines.length)) {
        const pieces = hardBreak(word, widthOf(lines.length), m);
        for (const piece of pieces.slice(0, -1)) {
          lines.push(piece);
          if (lines.length >= maxLines) {
            overflow = true;
            break outer;
          }
        }
        line = pieces.at(-1) ?? "";
        ww = textWidth(line, m.fontPx, m.bold);
        lineW = ww;
      }
    }
    lines.push(line);
    if (lines.length >= maxLines) {
      if (paragraphs.slice(p + 1).some((rest) => rest.words.length > 0)) overflow = true;
      break;
    }
  }
  // Trailing empty paragraphs add nothing visible.
  while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  if (overflow && lines.length > 0) {
    const last = lines.length - 1;
    lines[last] = withEllipsis(lines[last] ?? "", widthOf(last), m);
  }
  return lines;
}
