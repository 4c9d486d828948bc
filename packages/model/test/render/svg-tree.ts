import { must } from "@ams/shared/testing";
import { XMLParser, XMLValidator } from "fast-xml-parser";

/** A parsed SVG element, enough to query the renderer's output in tests. */
export type El = { name: string; attrs: Record<string, string>; children: El[]; text: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
});

function convert(items: Record<string, unknown>[]): El[] {
  const out: El[] = [];
  for (const item of items) {
    const name = Object.keys(item).find((k) => k !== ":@")!;
    if (name === "#text") {
      out.push({ name, attrs: {}, children: [], text: String(item[name]) });
      continue;
    }
    const children = convert(item[name] as Record<string, unknown>[]);
    out.push({ name, attrs: (item[":@"] as Record<string, string>) ?? {}, children, text: "" });
  }
  return out;
}

/** Parses and checks well-formedness; throws with the validator's message when the document is broken. */
export function parseSvg(svg: string): El {
  const valid = XMLValidator.validate(svg);
  if (valid !== true) throw new Error(`not well-formed: ${JSON.stringify(valid.err)}`);
  const roots = convert(parser.parse(svg)).filter((e) => e.name !== "#text");
  if (roots.length !== 1 || roots[0]?.name !== "svg") throw new Error("expected one <svg> root");
  return must(roots[0], "the root element");
}

export function all(root: El, pred: (e: El) => boolean): El[] {
  const found: El[] = [];
  const walk = (e: El) => {
    if (pred(e)) found.push(e);
    for (const c of e.children) walk(c);
  };
  walk(root);
  return found;
}

export const hasClass = (cls: string) => (e: El) => (e.attrs.class ?? "").split(/\s+/).includes(cls);

export function textOf(e: El): string {
  return e.name === "#text" ? e.text : e.children.map(textOf).join("");
}
