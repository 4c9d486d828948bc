import { describe, expect, it } from "vitest";
import { sanitizeSvg } from "../src/svg-sanitize.ts";

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Minimal strict XML well-formedness check for sanitizer output: one root element, balanced and properly nested tags,
 * double-quoted unique attributes, no raw `<` or `&` outside markup and references, no comments, CDATA, processing
 * instructions or declarations. Throws with a reason when the document is not well-formed.
 */
function assertWellFormed(xml: string): void {
  const stack: string[] = [];
  let i = 0;
  let roots = 0;
  const name = /[A-Za-z_][\w.:-]*/y;
  const fail = (why: string): never => {
    throw new Error(`not well-formed at ${i}: ${why}\n${xml}`);
  };
  const checkText = (t: string) => {
    if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(t)) fail(`bare & in ${JSON.stringify(t)}`);
    if (stack.length === 0 && t.trim() !== "") fail("text outside the root element");
  };
  while (i < xml.length) {
    const lt = xml.indexOf("<", i);
    if (lt === -1) {
      checkText(xml.slice(i));
      break;
    }
    checkText(xml.slice(i, lt));
    i = lt;
    if (xml[i + 1] === "!" || xml[i + 1] === "?") fail("comment, CDATA, declaration or processing instruction");
    const closing = xml[i + 1] === "/";
    name.lastIndex = i + (closing ? 2 : 1);
    const m = name.exec(xml);
    if (!m) fail("bad tag name");
    const tag = (m as RegExpExecArray)[0];
    i = name.lastIndex;
    if (closing) {
      if (xml[i] !== ">") fail("junk in end tag");
      if (stack.pop() !== tag) fail(`mismatched </${tag}>`);
      i++;
      continue;
    }
    if (stack.length === 0) roots++;
    if (roots > 1) fail("more than one root element");
    const seen = new Set<string>();
    for (;;) {
      if (xml.startsWith("/>", i)) {
        i += 2;
        break;
      }
      if (xml[i] === ">") {
        stack.push(tag);
        i++;
        break;
      }
      if (xml[i] !== " ") fail("attributes must be separated by a space");
      i++;
      name.lastIndex = i;
      const a = name.exec(xml);
      if (!a) fail("bad attribute name");
      const attr = (a as RegExpExecArray)[0];
      if (seen.has(attr)) fail(`duplicate attribute ${attr}`);
      seen.add(attr);
      i = name.lastIndex;
      if (xml[i] !== "=" || xml[i + 1] !== '"') fail("attribute value must be double-quoted");
      const close = xml.indexOf('"', i + 2);
      if (close === -1) fail("unterminated attribute value");
      const value = xml.slice(i + 2, close);
      if (value.includes("<")) fail("< in attribute value");
      checkText(stack.length === 0 ? "" : value);
      if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(value)) fail("bare & in attribute value");
      i = close + 1;
    }
  }
  if (stack.length > 0) fail(`unclosed <${stack.join("><")}>`);
  if (roots !== 1) fail("no root element");
}

/** Everything the packs test requires of a served icon, plus well-formedness and idempotence. */
function assertSafe(out: string): void {
  assertWellFormed(out);
  expect(out.startsWith(`<svg xmlns="${SVG_NS}"`)).toBe(true);
  expect(out).toMatch(/^<svg [^>]*viewBox="[^"]+"/);
  expect(out).not.toMatch(/<script/i);
  expect(out).not.toMatch(/\son\w*\s*=/i);
  expect(out).not.toMatch(/foreignObject/i);
  expect(out).not.toMatch(/javascript:|vbscript:|data:/i);
  expect(out).not.toMatch(/href="(?!#)/i);
  expect(out).not.toMatch(/url\((?!\s*['"]?#)/i);
  expect(out).not.toMatch(/@import|<!|<\?|-->/i);
  expect(sanitizeSvg(out)).toBe(out);
}

function clean(svg: string): string {
  const out = sanitizeSvg(svg);
  assertSafe(out);
  return out;
}

describe("sanitizeSvg", () => {
  it("keeps a clean icon's shapes, gradients, clip paths and internal references", () => {
    const icon =
      `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 32 32">` +
      '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff"/>' +
      '<stop offset="1" stop-color="#000" stop-opacity=".5"/></linearGradient>' +
      '<clipPath id="c"><rect width="32" height="32" rx="4"/></clipPath>' +
      '<symbol id="s" viewBox="0 0 2 2"><circle cx="1" cy="1" r="1"/></symbol></defs>' +
      '<g clip-path="url(#c)" fill="url(#g)" transform="translate(1 1)"><path d="M2 2h28v28H2z"/>' +
      '<polygon points="1,2 3,4 5,6"/><ellipse cx="5" cy="5" rx="2" ry="1"/><line x1="0" y1="0" x2="5" y2="5"/>' +
      '<polyline points="0 0 1 1"/></g><use xlink:href="#s" x="4" y="4" width="8" height="8"/>' +
      '<use href="#s" style="fill:url(#g);opacity:.5"/><title>Kubernetes &amp; friends</title></svg>';
    const out = clean(icon);
    expect(out).toBe(icon);
  });

  it("normalizes whitespace and drops editor metadata, comments and the XML declaration", () => {
    const out = clean(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- Generator: Illustrator -->\n' +
        `<svg version="1.1" id="Layer_1" xmlns="${SVG_NS}" xmlns:sodipodi="x" sodipodi:docname="a.svg" ` +
        'x="0px" y="0px" viewBox="0 0 32 32" style="enable-background:new 0 0 32 32;" xml:space="preserve">\n' +
        '<metadata><rdf:RDF/></metadata><sodipodi:namedview/>\n<path data-name="x" d="M0,0\tL1,1\n\tz"/></svg>',
    );
    expect(out).toBe(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 32 32" id="Layer_1" x="0px" y="0px" ` +
        'style="enable-background:new 0 0 32 32;" xml:space="preserve"><path d="M0,0 L1,1 z"/></svg>',
    );
  });

  it.each([
    ["lower case", "<script>alert(1)</script>"],
    ["upper case", "<SCRIPT>alert(1)</SCRIPT>"],
    ["mixed case with attributes", '<ScRiPt type="text/javascript" src="http://evil/x.js"></sCrIpT>'],
    ["self-closing external script", '<script xlink:href="https://evil/x.js"/>'],
    ["prefixed", "<svg:script>alert(1)</svg:script>"],
    ["CDATA body hiding an end tag", "<script><![CDATA[ if (a </script> b) alert(1) ]]></script>"],
    ["unterminated", "<script>alert(1)"],
    ["inside title", "<title>x<script>alert(1)</script></title>"],
    ["behind a fake comment end", "<!-- --!><script>alert(1)</script> -->"],
  ])("removes script elements (%s)", (_label, payload) => {
    const out = clean(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><path d="M0 0h8v8z"/>${payload}</svg>`);
    expect(out).not.toMatch(/alert/);
  });

  it.each([
    ["quoted", '<svg onload="alert(1)">'],
    ["camel case", "<svg onLoad='alert(1)'>"],
    ["upper case", "<svg ONLOAD=alert(1)>"],
    ["slash separator", "<svg/onload=alert(1)>"],
    ["newline before =", "<svg onload\n=\n'alert(1)'>"],
    ["on a child", '<svg><g onclick="alert(1)"><path onmouseover="alert(1)" d="M0 0"/></g>'],
    ["unknown handler", '<svg onbegin="alert(1)" onfocusin=alert(1)>'],
    ["entity in the name is not decoded", '<svg on&#108;oad="alert(1)">'],
  ])("removes event handler attributes (%s)", (_label, open) => {
    const out = clean(`${open}<rect width="1" height="1"/></svg>`);
    expect(out).not.toMatch(/alert/);
    expect(out).toContain('<rect width="1" height="1"/>');
  });

  it.each([
    "<foreignObject><div xmlns='http://www.w3.org/1999/xhtml'><img src=x onerror=alert(1)></div></foreignObject>",
    "<FOREIGNOBJECT width='10' height='10'><iframe src='javascript:alert(1)'></iframe></FOREIGNOBJECT>",
    "<switch><foreignObject requiredExtensions='http://ns.adobe.com/AdobeIllustrator/10.0/'/><g/></switch>",
    "<iframe src='https://evil'></iframe><embed src='x'/><object data='x'></object>",
    "<a xlink:href='javascript:alert(1)'><rect width='1' height='1'/></a>",
    "<image href='https://evil/track.png'/><image xlink:href='data:image/png;base64,AAAA'/>",
    "<animate attributeName='href' to='javascript:alert(1)'/><set attributeName='onload' to='alert(1)'/>",
    "<html:script xmlns:html='http://www.w3.org/1999/xhtml'>alert(1)</html:script>",
  ])("removes foreignObject, embedded documents, links, images and animation: %s", (payload) => {
    const out = clean(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8">${payload}<path d="M1 1"/></svg>`);
    expect(out).not.toMatch(/alert|evil|iframe|embed|object|image|animate|<set|<a[ >]|data:/i);
    expect(out).toContain('<path d="M1 1"/>');
  });

  it.each([
    ["http", 'href="http://evil/a.svg#x"'],
    ["https xlink", 'xlink:href="https://evil/a.svg#x"'],
    ["protocol-relative", 'href="//evil/a.svg#x"'],
    ["data URL", 'href="data:image/svg+xml;base64,PHN2Zy8+"'],
    ["javascript", 'xlink:href="javascript:alert(1)"'],
    ["JaVaScRiPt", 'href="JaVaScRiPt:alert(1)"'],
    ["decimal entities", 'href="&#106;&#97;vascript:alert(1)"'],
    ["hex entities without semicolons", 'href="&#x6A&#x61vascript:alert(1)"'],
    ["tab inside", 'href="java&#x09;script:alert(1)"'],
    ["leading whitespace", 'href="  \njavascript:alert(1)"'],
    ["unquoted", "href=javascript:alert(1) "],
    ["single-quoted", "xlink:href='https://evil/#a'"],
    ["fragment of an external file", 'href="a.svg#x"'],
    ["entity-encoded hash of an external target", 'href="&#35;x&quot;/&gt;&lt;script&gt;"'],
  ])("removes external references from use (%s)", (_label, attr) => {
    const out = clean(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><use ${attr}/><use href="#ok"/></svg>`);
    expect(out).toBe(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><use/><use href="#ok"/></svg>`);
  });

  it("decodes entities before checking internal references", () => {
    const out = clean(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><use xlink:href="&#35;icon"/></svg>`);
    expect(out).toBe(
      `<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 8 8"><use xlink:href="#icon"/></svg>`,
    );
  });

  it.each([
    ["external url", "fill:url(http://evil/x.svg#g)"],
    ["quoted external url", "fill:url('https://evil/x.svg#g')"],
    ["data url", "background:url(data:image/png;base64,AAAA)"],
    ["relative url hidden behind a comment", "fill:url(/**/#g)"],
    ["escaped url", "fill:u\\72l(http://evil/)"],
    ["hex-escaped url", "fill:\\75 rl(//evil/)"],
    ["comment inside the function name", "fill:u/**/rl(http://evil/)"],
    ["expression", "width:expression(alert(1))"],
    ["image-set", "background:image-set('https://evil/x.png' 1x)"],
    ["import", "@import 'https://evil/x.css'"],
    ["javascript", "background:javascript:alert(1)"],
    ["binding", "-moz-binding:url(#x)"],
  ])("removes unsafe style attributes (%s)", (_label, css) => {
    const out = clean(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><path style="${css}" d="M0 0"/></svg>`);
    expect(out).toBe(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><path d="M0 0"/></svg>`);
  });

  it("removes presentation attributes that point outside the document", () => {
    const out = clean(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><path fill="url(https://evil/#g)" filter="url(//evil#f)" ` +
        'mask="url(#m)" clip-path="url( \'#c\' )" d="M0 0"/></svg>',
    );
    expect(out).toBe(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><path mask="url(#m)" clip-path="url( '#c' )" d="M0 0"/></svg>`,
    );
  });

  it("keeps safe style elements and drops unsafe ones", () => {
    const out = clean(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><style>.a{fill:url(#g)} g > .b{stroke:red}</style>` +
        "<style>@import url(https://evil/x.css);</style>" +
        "<STYLE><![CDATA[ .c { background: url(http://evil/x.png) } ]]></STYLE>" +
        "<style>.d{fill:u\\72l(//evil)}</style><style>.e{}</style><style>x</style><style><b>.f{}</b></style>" +
        '<path class="a b" d="M0 0"/></svg>',
    );
    expect(out).toBe(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><style>.a{fill:url(#g)} g &gt; .b{stroke:red}</style>` +
        '<style>.e{}</style><style>x</style><path class="a b" d="M0 0"/></svg>',
    );
  });

  it("drops style sheets that smuggle markup through CDATA", () => {
    const out = clean(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><style><![CDATA[</style><script>alert(1)</script>]]></style></svg>`,
    );
    expect(out).toBe(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"/>`);
  });

  it("bounds nesting depth instead of overflowing the stack", () => {
    const depth = 100_000;
    const out = clean(`<svg xmlns="${SVG_NS}">${"<g>".repeat(depth)}<path d="M0 0"/>${"</g>".repeat(depth)}</svg>`);
    expect(out.length).toBeLessThan(2000);
  });

  it("drops DOCTYPE, ENTITY declarations and processing instructions without expanding entities", () => {
    const out = clean(
      '<?xml version="1.0"?><?xml-stylesheet href="https://evil/x.css" type="text/css"?>' +
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [' +
        '<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY lol "<script>alert(1)</script>">]>' +
        `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><text x="0" y="4">&xxe;&lol;</text><!ENTITY x "y"></svg>`,
    );
    expect(out).toBe(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><text x="0" y="4">&amp;xxe;&amp;lol;</text></svg>`);
  });

  it("keeps CDATA in text elements as escaped text and drops it elsewhere", () => {
    const out = clean(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><![CDATA[<script>alert(1)</script>]]>` +
        "<text><![CDATA[a < b & <script>]]></text></svg>",
    );
    expect(out).toBe(`<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><text>a &lt; b &amp; &lt;script&gt;</text></svg>`);
  });

  it("sanitizes nested svg elements like any other element", () => {
    const out = clean(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><svg onload="alert(1)" xmlns="http://www.w3.org/1999/xhtml" ` +
        'x="1" y="1" viewBox="0 0 2 2"><script>alert(2)</script><svg><rect width="1" height="1"/></svg></svg></svg>',
    );
    expect(out).toBe(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 8 8"><svg x="1" y="1" viewBox="0 0 2 2"><svg><rect width="1" height="1"/>` +
        "</svg></svg></svg>",
    );
  });

  it("adds the SVG namespace and derives a viewBox from width and height", () => {
    expect(clean('<svg width="48px" height="24"><path d="M0 0"/></svg>')).toBe(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 48 24" width="48px" height="24"><path d="M0 0"/></svg>`,
    );
    expect(clean('<SVG xmlns="http://evil/ns" VIEWBOX="0,0,16,16"><PATH D="M0 0"/></SVG>')).toBe(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 16 16"><path d="M0 0"/></svg>`,
    );
    expect(clean('<svg width="100%" height="auto" viewBox="junk"/>')).toBe(
      `<svg xmlns="${SVG_NS}" viewBox="0 0 24 24" width="100%" height="auto"/>`,
    );
  });

  it("returns an empty icon when there is no svg root", () => {
    const empty = `<svg xmlns="${SVG_NS}" viewBox="0 0 24 24"/>`;
    expect(clean("")).toBe(empty);
    expect(clean("not an svg")).toBe(empty);
    expect(clean("<html><body><svg><path d='M0 0'/></svg><script>alert(1)</script></body></html>")).toBe(empty);
  });

  it("ignores content after the root and survives truncated or malformed markup", () => {
    for (const input of [
      `<svg xmlns="${SVG_NS}"><path d="M0 0"/></svg><svg onload="alert(1)"/><script>alert(1)</script>`,
      `<svg xmlns="${SVG_NS}"><path d="M0 0`,
      `<svg xmlns="${SVG_NS}"><path d="M0 0"/><g><g><rect`,
      `<svg xmlns="${SVG_NS}"><g></path></g><path d='M0 0' fill=red/></svg>`,
      `<svg xmlns="${SVG_NS}" a="1" a="2" A="3"><<path d="M0 0"/>< 3 &nonsense; &#0; &#xD800;</svg>`,
      `<svg xmlns="${SVG_NS}"><!-- unterminated comment <script>alert(1)</script>`,
      `<svg xmlns="${SVG_NS}"><title>&#0;&#x1;ok&#xFFFE;</title><desc>a\u0000b</desc></svg>`,
      `\uFEFF<svg xmlns="${SVG_NS}"><path d="M0 0"/></svg>`,
    ]) {
      const out = clean(input);
      expect(out).not.toMatch(/alert/);
    }
  });
});
