/** Character data and attribute values: line-end and attribute-value normalization, the five entities, references. */

export class XmlSyntaxError extends Error {
  readonly pos: number;
  constructor(pos: number, message: string) {
    super(message);
    this.pos = pos;
  }
}

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", apos: "'", quot: '"' };

function isXmlChar(cp: number): boolean {
  return (
    cp === 9 ||
    cp === 10 ||
    cp === 13 ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Decodes references in s (which starts at offset base of the source). */
function decodeEntities(s: string, base: number): string {
  const out: string[] = [];
  let from = 0;
  for (let amp = s.indexOf("&"); amp !== -1; amp = s.indexOf("&", from)) {
    const semi = s.indexOf(";", amp + 1);
    if (semi === -1 || semi - amp > 12) throw new XmlSyntaxError(base + amp, "'&' must be written as &amp;");
    const ref = s.slice(amp + 1, semi);
    let value: string | undefined;
    if (ref.charCodeAt(0) === 35 /* # */) {
      const hex = ref.charCodeAt(1) === 120; /* x */
      const digits = ref.slice(hex ? 2 : 1);
      const cp =
        digits.length > 0 && (hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)
          ? Number.parseInt(digits, hex ? 16 : 10)
          : -1;
      if (!isXmlChar(cp)) throw new XmlSyntaxError(base + amp, `&${ref}; is not a valid XML character`);
      value = String.fromCodePoint(cp);
    } else {
      value = PREDEFINED[ref];
      if (value === undefined) {
        throw new XmlSyntaxError(base + amp, `undefined entity &${ref}; (only the five XML entities are allowed)`);
      }
    }
    out.push(s.slice(from, amp), value);
    from = semi + 1;
  }
  out.push(s.slice(from));
  return out.join("");
}

const NEWLINES = /\r\n?/g;

export const normalizeNewlines = (s: string): string => (s.indexOf("\r") === -1 ? s : s.replace(NEWLINES, "\n"));
const ATTR_SPACES = /\r\n|[\r\n\t]/g;

export function readText(src: string, start: number, end: number): string {
  const s = normalizeNewlines(src.slice(start, end));
  return s.indexOf("&") === -1 ? s : decodeEntities(s, start);
}

export function readAttrValue(src: string, start: number, end: number): string {
  let s = src.slice(start, end);
  // Attribute-value normalization: literal line breaks and tabs become spaces (character references survive).
  if (s.indexOf("\n") !== -1 || s.indexOf("\r") !== -1 || s.indexOf("\t") !== -1) s = s.replace(ATTR_SPACES, " ");
  return s.indexOf("&") === -1 ? s : decodeEntities(s, start);
}
