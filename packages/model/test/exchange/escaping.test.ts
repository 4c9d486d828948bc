import { must } from "@ams/shared/testing";
import { describe, expect, test } from "vitest";
import { type ModelDocument, parseExchange, serializeExchange } from "../../src/exchange/index.ts";
import { schemaErrors } from "./helpers.ts";

const tricky = [
  "less < and & \"double\" 'single' > greater",
  "CDATA end ]]> inside",
  "line\nbreak, tab\tand CR\r\nLF",
  "  leading and trailing spaces  ",
  "astral 🏛 and accents éü",
  "&amp; looks escaped already &#38;",
];

function documentWith(names: string[]): ModelDocument {
  return {
    model: { identifier: "id-m", name: names[0], documentation: names[2] },
    propertyDefinitions: [
      { id: "pd", ord: 0, name: must(names[1], "the second name"), type: "string", isSystem: false, i18n: null },
    ],
    elements: names.map((name, i) => ({
      id: `e${i}`,
      ord: i,
      type: "BusinessActor",
      name,
      documentation: name,
      i18n: null,
    })),
    relationships: [],
    views: [
      {
        id: "v",
        ord: 0,
        name: must(names[0], "the first name"),
        viewpoint: must(names[0], "the first name"),
        documentation: null,
        i18n: null,
      },
    ],
    nodes: names.map((name, i) => ({
      id: `n${i}`,
      viewId: "v",
      parentId: null,
      ord: i,
      kind: "label",
      elementId: null,
      x: i * 10,
      y: 0,
      w: 100,
      h: 40,
      label: name,
      documentation: null,
      i18n: null,
      style: { font: { name, size: 9 } },
    })),
    connections: [],
    properties: names.map((value, i) => ({
      ownerKind: "element",
      ownerId: `e${i}`,
      ord: 0,
      definitionId: "pd",
      value,
      i18n: null,
    })),
    folders: [
      {
        id: 1,
        parentId: null,
        ord: 0,
        identifier: null,
        label: must(names[1], "the second name"),
        documentation: null,
        refId: null,
        i18n: null,
      },
    ],
  };
}

describe("escaping", () => {
  test("text and attribute values survive export and re-import exactly", () => {
    const doc = documentWith(tricky);
    const xml = serializeExchange(doc);
    expect(schemaErrors(xml)).toBe("");
    expect(xml).not.toContain("]]>");
    expect(xml).toContain("less &lt; and &amp; \"double\" 'single' &gt; greater</name>");
    expect(xml).toContain('viewpoint="less &lt; and &amp; &quot;double&quot;');
    expect(xml).toContain('name="line&#10;break, tab&#9;and CR&#13;&#10;LF"');
    const back = parseExchange(xml).document;
    expect(back).toEqual(doc);
    expect(serializeExchange(back)).toBe(xml);
  });

  test("characters XML 1.0 cannot carry are stripped, lone surrogates replaced, and the export still validates", () => {
    const doc = documentWith(["bell\u0007 vtab\u000b nul\u0000 ffff\uffff end", "lone \ud800 surrogate"]);
    const xml = serializeExchange(doc);
    expect(schemaErrors(xml)).toBe("");
    const back = parseExchange(xml).document;
    expect(back.elements[0]?.name).toBe("bell vtab nul ffff end");
    expect(back.elements[1]?.name).toBe("lone \ufffd surrogate");
    expect(back.nodes[0]?.style).toEqual({ font: { name: "bell vtab nul ffff end", size: 9 } });
  });

  test("character references and CDATA in a source file are decoded", () => {
    const xml = `<?xml version="1.0"?>
<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="m">
  <name>&#65;&#x42;&lt;C&gt; <![CDATA[<raw & ]]> &quot;q&apos;</name>
</model>`;
    expect(parseExchange(xml).document.model.name).toBe("AB<C> <raw &  \"q'");
  });
});
