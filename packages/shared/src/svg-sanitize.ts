// Allow-list SVG sanitizer for icon-pack plugins.
//
// Used by scripts/build-icon-packs.ts when the built-in packs are generated and by the runtime plugin loader before an
// icon is served inline. It does not use a DOM: a small tokenizer reads the markup the way a lenient XML/HTML parser
// would, a tree is rebuilt from allow-listed elements and attributes only, and that tree is serialized again with every
// text and attribute value escaped. What is not explicitly allowed is dropped:
// - elements outside the allow-list are dropped together with their whole subtree (script, foreignObject, iframe,
//   image, a, animate/set, metadata, editor namespaces, ...), matched case-insensitively (`<SCRIPT`, `<ForeignObject`);
// - attributes outside the allow-list are dropped (every on* event handler, xml:base, editor attributes, ...);
// - href / xlink:href survive only as an internal fragment reference (`#id`), after entity decoding;
// - any attribute or style declaration with url(...) to a non-fragment target, expression(), image-set(),
//   javascript:, @-rules or similar is dropped; a <style> element with such content is dropped entirely;
// - comments, processing instructions, <!DOCTYPE> (with its internal subset and <!ENTITY> declarations) and CDATA
//   outside of text elements are dropped;
// - the root is always <svg> with xmlns set to the SVG namespace and a viewBox (derived from width/height when
//   missing).
// The output is well-formed XML and a fixed point: sanitizeSvg(sanitizeSvg(x)) === sanitizeSvg(x).

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const DEFAULT_VIEWBOX = "0 0 24 24";
const EMPTY_SVG = `<svg xmlns="${SVG_NS}" viewBox="${DEFAULT_VIEWBOX}"/>`;

const ALLOWED_ELEMENTS = [
  "svg",
  "g",
  "switch",
  "defs",
  "symbol",
  "use",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "mask",
  "pattern",
  "marker",
  "title",
  "desc",
  "text",
  "tspan",
  "style",
  "filter",
  "feBlend",
  "feColorMatrix",
  "feComponentTransfer",
  "feComposite",
  "feDropShadow",
  "feFlood",
  "feFuncA",
  "feFuncB",
  "feFuncG",
  "feFuncR",
  "feGaussianBlur",
  "feMerge",
  "feMergeNode",
  "feMorphology",
  "feOffset",
];

const ALLOWED_ATTRIBUTES = [
  // structure and geometry
  "id",
  "class",
  "style",
  "transform",
  "d",
  "points",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "fx",
  "fy",
  "fr",
  "dx",
  "dy",
  "width",
  "height",
  "viewBox",
  "preserveAspectRatio",
  "pathLength",
  "href",
  "xlink:href",
  "xml:space",
  // presentation
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "stroke-dasharray",
  "stroke-dashoffset",
  "opacity",
  "color",
  "display",
  "visibility",
  "clip-path",
  "clip-rule",
  "mask",
  "filter",
  "vector-effect",
  "shape-rendering",
  "paint-order",
  "mix-blend-mode",
  "isolation",
  "marker-start",
  "marker-mid",
  "marker-end",
  // text
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "letter-spacing",
  "textLength",
  "lengthAdjust",
  // paint servers, clipping, masking, markers
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "clipPathUnits",
  "maskUnits",
  "maskContentUnits",
  "patternUnits",
  "patternContentUnits",
  "patternTransform",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  // filters
  "filterUnits",
  "primitiveUnits",
  "in",
  "in2",
  "result",
  "stdDeviation",
  "mode",
  "type",
  "values",
  "operator",
  "k1",
  "k2",
  "k3",
  "k4",
  "radius",
  "flood-color",
  "flood-opacity",
  "color-interpolation-filters",
  "tableValues",
  "slope",
  "intercept",
  "amplitude",
  "exponent",
];

const ELEMENT_BY_LOWER = new Map(ALLOWED_ELEMENTS.map((n) => [n.toLowerCase(), n]));
const ATTRIBUTE_BY_LOWER = new Map(ALLOWED_ATTRIBUTES.map((n) => [n.toLowerCase(), n]));
/** Elements whose character data is kept. */
const TEXT_ELEMENTS = new Set(["title", "desc", "text", "tspan", "style"]);
/** Elements that may hold character data only: any child element is dropped. */
const TEXT_ONLY_ELEMENTS = new Set(["title", "desc", "style"]);
/** Elements nested deeper than this are dropped, which bounds the recursion of the later passes. */
const MAX_DEPTH = 256;
/** Elements dropped when they end up without content. */
const DROP_WHEN_EMPTY = new Set(["title", "desc", "style"]);

type Attr = [name: string, value: string];

type Token =
  | { kind: "start"; name: string; attrs: Attr[]; selfClosing: boolean }
  | { kind: "end"; name: string }
  | { kind: "text"; text: string };

interface Element {
  name: string;
  attrs: Attr[];
  children: (Element | string)[];
}

interface Frame {
  /** Lower-cased tag name as written, used to match end tags. */
  tag: string;
  /** Output element, or null when this subtree is being dropped. */
  element: Element | null;
}

// ---------------------------------------------------------------------------------------------------------------------
// Character handling

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function isXmlChar(cp: number): boolean {
  return (
    cp === 0x9 ||
    cp === 0xa ||
    cp === 0xd ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/** Removes characters that may not appear in an XML 1.0 document (controls, lone surrogates, U+FFFE/U+FFFF). */
function stripInvalidChars(s: string): string {
  let out = "";
  for (const ch of s) {
    if (isXmlChar(ch.codePointAt(0) ?? 0)) out += ch;
  }
  return out;
}

/**
 * Decodes numeric character references (with or without the trailing semicolon, as HTML parsers do) and the five
 * predefined XML entities. Any other named reference stays literal and is escaped on output, so it cannot be resolved
 * against a (dropped) DOCTYPE.
 */
function decodeEntities(s: string): string {
  if (!s.includes("&")) return stripInvalidChars(s);
  const decoded = s.replace(/&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*);)/g, (m, hex, dec, named) => {
    if (named !== undefined) return NAMED_ENTITIES[named] ?? m;
    const cp = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(dec, 10);
    return Number.isFinite(cp) && isXmlChar(cp) ? String.fromCodePoint(cp) : "\uFFFD";
  });
  return stripInvalidChars(decoded);
}

function escapeText(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, "&quot;");
}

function collapseWhitespace(s: string): string {
  return s.replace(/[\t\n\r ]+/g, " ");
}

// ---------------------------------------------------------------------------------------------------------------------
// CSS checks (style attributes, presentation attributes, <style> elements)

/**
 * Lower-cased CSS with escapes resolved and whitespace removed: the form that is checked for danger. Comments are
 * removed only when `stripComments` is set; both forms are checked, so neither `u/**\/rl(` nor `url(/**\/#x)` (a
 * relative URL, not a fragment) gets through.
 */
function normalizeCss(css: string, stripComments: boolean): string {
  let s = css
    .replace(/\\([0-9a-fA-F]{1,6})[\t\n\r\f ]?/g, (_m, hex: string) => {
      const cp = Number.parseInt(hex, 16);
      return isXmlChar(cp) ? String.fromCodePoint(cp) : "\uFFFD";
    })
    .replace(/\\(.)/gs, "$1");
  if (stripComments) s = s.replace(/\/\*[\s\S]*?(\*\/|$)/g, "");
  // control characters were already removed by stripInvalidChars / decodeEntities
  return s.replace(/\s+/g, "").toLowerCase();
}

/**
 * Functions that fetch or evaluate something other than an internal fragment, script URLs, any @-rule, and markup
 * characters (CSS never needs `<`; a style sheet holding one is an attempt to smuggle markup).
 */
const DANGEROUS_CSS =
  /(expression|image-set|image|cross-fade|element|src|paint|env|attr)\(|javascript:|vbscript:|livescript:|behavior:|-moz-binding|@|</;

/** True when the CSS text references nothing but internal fragments (`url(#id)`) and evaluates nothing. */
function isSafeCss(css: string): boolean {
  for (const n of [normalizeCss(css, false), normalizeCss(css, true)]) {
    if (DANGEROUS_CSS.test(n)) return false;
    // every url( must point at an internal fragment, optionally quoted
    if (/url\((?!['"]?#)/.test(n)) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------------------------
// Tokenizer

/** Skips a `<!...>` declaration (DOCTYPE with internal subset, ENTITY, ...) starting at `i`; returns the next index. */
function skipDeclaration(s: string, i: number): number {
  let depth = 0;
  for (let j = i + 2; j < s.length; j++) {
    const c = s[j];
    if (c === '"' || c === "'") {
      const close = s.indexOf(c, j + 1);
      if (close === -1) return s.length;
      j = close;
    } else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === ">" && depth <= 0) return j + 1;
  }
  return s.length;
}

function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f";
}

function tokenize(s: string): Token[] {
  const tokens: Token[] = [];
  const n = s.length;
  let i = 0;
  const text = (t: string) => {
    if (t) tokens.push({ kind: "text", text: decodeEntities(t) });
  };
  while (i < n) {
    const lt = s.indexOf("<", i);
    if (lt === -1) {
      text(s.slice(i));
      break;
    }
    text(s.slice(i, lt));
    i = lt;
    if (s.startsWith("<!--", i)) {
      const end = s.indexOf("-->", i + 4);
      i = end === -1 ? n : end + 3;
      continue;
    }
    if (s.startsWith("<![CDATA[", i)) {
      const end = s.indexOf("]]>", i + 9);
      const data = s.slice(i + 9, end === -1 ? n : end);
      if (data) tokens.push({ kind: "text", text: stripInvalidChars(data) });
      i = end === -1 ? n : end + 3;
      continue;
    }
    const next = s[i + 1];
    if (next === "?") {
      const end = s.indexOf("?>", i + 2);
      i = end === -1 ? n : end + 2;
      continue;
    }
    if (next === "!") {
      i = skipDeclaration(s, i);
      continue;
    }
    if (next === "/") {
      let j = i + 2;
      while (j < n && !isSpace(s[j]) && s[j] !== ">" && s[j] !== "/") j++;
      const name = s.slice(i + 2, j);
      const end = s.indexOf(">", j);
      i = end === -1 ? n : end + 1;
      if (name) tokens.push({ kind: "end", name });
      continue;
    }
    if (next === undefined || !/[A-Za-z_]/.test(next)) {
      text("<");
      i++;
      continue;
    }
    // start tag
    let j = i + 1;
    while (j < n && !isSpace(s[j]) && s[j] !== ">" && s[j] !== "/") j++;
    const name = s.slice(i + 1, j);
    const attrs: Attr[] = [];
    let selfClosing = false;
    let closed = false;
    while (j < n) {
      const c = s[j];
      if (isSpace(c)) {
        j++;
      } else if (c === ">") {
        j++;
        closed = true;
        break;
      } else if (c === "/") {
        if (s[j + 1] === ">") {
          selfClosing = true;
          closed = true;
          j += 2;
          break;
        }
        j++; // a stray slash separates attributes, as in `<svg/onload=...>`
      } else {
        const start = j;
        j++; // the first character belongs to the name even when it is `=` or a quote
        while (j < n && !isSpace(s[j]) && s[j] !== ">" && s[j] !== "/" && s[j] !== "=") j++;
        const attrName = s.slice(start, j);
        let k = j;
        while (k < n && isSpace(s[k])) k++;
        let value: string | null = null;
        if (s[k] === "=") {
          k++;
          while (k < n && isSpace(s[k])) k++;
          const q = s[k];
          if (q === '"' || q === "'") {
            const close = s.indexOf(q, k + 1);
            if (close === -1) {
              j = n;
              break;
            }
            value = s.slice(k + 1, close);
            j = close + 1;
          } else {
            let e = k;
            while (e < n && !isSpace(s[e]) && s[e] !== ">") e++;
            value = s.slice(k, e);
            j = e;
          }
        }
        if (value !== null) attrs.push([attrName, decodeEntities(value)]);
      }
    }
    if (!closed) break; // unterminated tag: drop it and everything after it
    tokens.push({ kind: "start", name, attrs, selfClosing });
    i = j;
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------------------------------------
// Tree building

const FRAGMENT_REF = /^#[A-Za-z_][A-Za-z0-9_.:-]*$/;

function sanitizeAttrs(raw: Attr[]): Attr[] {
  const out: Attr[] = [];
  const seen = new Set<string>();
  for (const [rawName, rawValue] of raw) {
    const name = ATTRIBUTE_BY_LOWER.get(rawName.toLowerCase());
    if (name === undefined || seen.has(name)) continue;
    const value = collapseWhitespace(rawValue).trim();
    if (name === "href" || name === "xlink:href") {
      if (!FRAGMENT_REF.test(value)) continue;
    } else if (!isSafeCss(value)) {
      continue;
    }
    seen.add(name);
    out.push([name, value]);
  }
  return out;
}

function buildTree(tokens: Token[]): Element | null {
  let root: Element | null = null;
  let rootClosed = false;
  const stack: Frame[] = [];
  for (const token of tokens) {
    const top = stack.at(-1) ?? null;
    if (token.kind === "start") {
      const tag = token.name.toLowerCase();
      const canonical = ELEMENT_BY_LOWER.get(tag);
      let element: Element | null = null;
      if (top === null) {
        if (root === null && !rootClosed && canonical === "svg") {
          element = { name: "svg", attrs: sanitizeAttrs(token.attrs), children: [] };
          root = element;
        }
      } else if (
        top.element !== null &&
        !TEXT_ONLY_ELEMENTS.has(top.element.name) &&
        canonical !== undefined &&
        stack.length < MAX_DEPTH
      ) {
        element = { name: canonical, attrs: sanitizeAttrs(token.attrs), children: [] };
        top.element.children.push(element);
      }
      if (token.selfClosing) {
        if (element !== null && element === root) rootClosed = true;
      } else {
        stack.push({ tag, element });
      }
    } else if (token.kind === "end") {
      const tag = token.name.toLowerCase();
      for (let k = stack.length - 1; k >= 0; k--) {
        if (stack[k]?.tag === tag) {
          stack.length = k;
          if (k === 0) rootClosed = root !== null;
          break;
        }
      }
    } else if (top?.element && TEXT_ELEMENTS.has(top.element.name)) {
      const children = top.element.children;
      const last = children[children.length - 1];
      if (typeof last === "string") children[children.length - 1] = last + token.text;
      else children.push(token.text);
    }
  }
  return root;
}

/** Normalizes text children and drops <style> elements with unsafe CSS and empty text-only elements. */
function cleanTree(el: Element): void {
  const kept: (Element | string)[] = [];
  for (const child of el.children) {
    if (typeof child === "string") {
      let t = child;
      if (el.name === "style") t = t.trim();
      else if (el.name === "title" || el.name === "desc") t = collapseWhitespace(t).trim();
      else t = collapseWhitespace(t);
      if (t) kept.push(t);
      continue;
    }
    cleanTree(child);
    if (child.name === "style") {
      const css = child.children.join("");
      if (!css || !isSafeCss(css)) continue;
    }
    if (DROP_WHEN_EMPTY.has(child.name) && child.children.length === 0) continue;
    kept.push(child);
  }
  el.children = kept;
}

function usesXlink(el: Element): boolean {
  return (
    el.attrs.some(([n]) => n.startsWith("xlink:")) || el.children.some((c) => typeof c !== "string" && usesXlink(c))
  );
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

function deriveViewBox(attrs: Attr[]): string {
  const get = (n: string) => attrs.find(([k]) => k === n)?.[1];
  const existing = get("viewBox");
  if (existing !== undefined) {
    const parts = existing.split(/[\s,]+/).filter(Boolean);
    if (parts.length === 4 && parts.every((p) => NUMBER.test(p))) return parts.join(" ");
  }
  const size = (v: string | undefined) => {
    const m = v?.match(/^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(?:px)?$/i);
    const num = m ? Number(m[1]) : Number.NaN;
    return Number.isFinite(num) && num > 0 ? m?.[1] : undefined;
  };
  const w = size(get("width"));
  const h = size(get("height"));
  return w !== undefined && h !== undefined ? `0 0 ${w} ${h}` : DEFAULT_VIEWBOX;
}

function serialize(el: Element): string {
  let out = `<${el.name}`;
  for (const [k, v] of el.attrs) out += ` ${k}="${escapeAttr(v)}"`;
  if (el.children.length === 0) return `${out}/>`;
  out += ">";
  for (const child of el.children) out += typeof child === "string" ? escapeText(child) : serialize(child);
  return `${out}</${el.name}>`;
}

/**
 * Returns a safe, well-formed SVG document for `svg`: only allow-listed elements and attributes, internal `#`
 * references only, no scripts, event handlers, external resources, comments or declarations. Input that contains no
 * <svg> root yields an empty icon.
 */
export function sanitizeSvg(svg: string): string {
  const root = buildTree(tokenize(svg.replace(/^\uFEFF/, "")));
  if (root === null) return EMPTY_SVG;
  cleanTree(root);
  const viewBox = deriveViewBox(root.attrs);
  const rest = root.attrs.filter(([k]) => k !== "viewBox");
  const attrs: Attr[] = [["xmlns", SVG_NS]];
  if (usesXlink(root)) attrs.push(["xmlns:xlink", XLINK_NS]);
  attrs.push(["viewBox", viewBox], ...rest);
  root.attrs = attrs;
  return serialize(root);
}
