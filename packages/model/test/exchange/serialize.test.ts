import { describe, expect, test } from "vitest";
import { emptyDocument, type ModelDocument, parseExchange, serializeExchange } from "../../src/exchange/index.ts";
import { readFixture, readSample, schemaErrors } from "./helpers.ts";

/** Rows as the API may leave them: values the XSD does not accept must still export to a valid document. */
function untidyDocument(): ModelDocument {
  const doc = emptyDocument();
  doc.model = {
    identifier: "id-m",
    name: "Untidy",
    i18n: { name: [{ lang: "en_US", value: "Untidy" }] },
    metadata: {
      entries: [
        { name: "title", value: "no prefix" },
        { name: "dc:nonsense", value: "not Dublin Core" },
        { name: "foaf:name", value: "other namespace" },
      ],
    },
  };
  doc.propertyDefinitions = [{ id: "pd", ord: 0, name: "Kind", type: "enumeration", isSystem: true, i18n: null }];
  doc.elements = [
    { id: "e1", ord: 0, type: "BusinessActor", name: "", documentation: null, i18n: null },
    { id: "e2", ord: 1, type: "DataObject", name: "Data", documentation: null, i18n: null },
  ];
  doc.relationships = [
    {
      id: "r1",
      ord: 0,
      type: "Access",
      sourceId: "e1",
      targetId: "e2",
      name: null,
      documentation: null,
      isDirected: true,
      accessType: "read_write",
      influenceStrength: "+",
      i18n: null,
    },
  ];
  doc.views = [{ id: "v1", ord: 0, name: "V", viewpoint: null, documentation: null, i18n: null }];
  const node = { viewId: "v1", label: null, documentation: null, i18n: null, style: null };
  doc.nodes = [
    { ...node, id: "n1", parentId: null, ord: 0, kind: "element", elementId: "e1", x: -5, y: -10, w: 0, h: -3 },
    {
      ...node,
      id: "n2",
      parentId: null,
      ord: 1,
      kind: "label",
      elementId: null,
      x: 1.6,
      y: 2,
      w: 50,
      h: 20,
      label: "has children",
      style: {
        font: { size: 0.2, style: "bold strikethrough" },
        lineWidth: 0,
        fill: { r: 300, g: -1, b: 7.7, a: 150 },
      },
    },
    { ...node, id: "n3", parentId: "n2", ord: 2, kind: "element", elementId: "e2", x: 5, y: 5, w: 10, h: 10 },
  ];
  doc.connections = [
    {
      id: "c1",
      viewId: "v1",
      ord: 0,
      kind: "relationship",
      relationshipId: "r1",
      sourceId: "n1",
      targetId: "n3",
      bendpoints: [{ x: -1, y: 4 }],
      label: null,
      documentation: null,
      i18n: null,
      style: null,
    },
  ];
  doc.properties = [{ ownerKind: "element", ownerId: "e1", ord: 0, definitionId: "pd", value: "x", i18n: null }];
  doc.folders = [
    { id: 1, parentId: null, ord: 0, identifier: null, label: "F", documentation: null, refId: null, i18n: null },
    {
      id: 2,
      parentId: 1,
      ord: 0,
      identifier: null,
      label: null,
      documentation: null,
      refId: "deleted-element",
      i18n: null,
    },
    { id: 3, parentId: 1, ord: 1, identifier: null, label: null, documentation: null, refId: "e2", i18n: null },
  ];
  return doc;
}

describe("serializeExchange", () => {
  test("an empty model exports to a valid document", () => {
    expect(schemaErrors(serializeExchange(emptyDocument()))).toBe("");
  });

  test("values outside the XSD are repaired or left out, so the export always validates", () => {
    const xml = serializeExchange(untidyDocument());
    expect(schemaErrors(xml)).toBe("");
    const { document } = parseExchange(xml);
    expect(document.model.i18n?.name).toEqual([{ lang: "en-US", value: "Untidy" }]);
    expect(document.model.metadata?.entries).toEqual([{ name: "dc:title", value: "no prefix" }]);
    expect(document.propertyDefinitions[0]?.type).toBe("string");
    expect(document.relationships[0]).toMatchObject({
      accessType: "ReadWrite",
      isDirected: null,
      influenceStrength: null,
    });
    expect(document.nodes.map((n) => [n.id, n.kind, n.x, n.y, n.w, n.h])).toEqual([
      ["n1", "element", 0, 0, 1, 1],
      ["n2", "container", 2, 2, 50, 20],
      ["n3", "element", 5, 5, 10, 10],
    ]);
    expect(document.nodes[1]?.style).toEqual({
      fill: { r: 255, g: 0, b: 8, a: 100 },
      font: { size: 1, style: "bold" },
      lineWidth: 1,
    });
    expect(document.connections[0]?.bendpoints).toEqual([{ x: 0, y: 4 }]);
    expect(document.folders.map((f) => f.refId)).toEqual([null, "e2"]);
  });

  test("organization items left without their referenced concept are dropped, and an empty tree is not written", () => {
    const doc = emptyDocument();
    doc.folders = [
      { id: 1, parentId: null, ord: 0, identifier: null, label: null, documentation: null, refId: "gone", i18n: null },
    ];
    const xml = serializeExchange(doc);
    expect(xml).not.toContain("<organizations>");
    expect(schemaErrors(xml)).toBe("");
  });

  test("the output does not depend on the order rows arrive in", () => {
    const doc = parseExchange(readFixture("features.xml")).document;
    const shuffled: ModelDocument = {
      ...doc,
      elements: [...doc.elements].reverse(),
      relationships: [...doc.relationships].reverse(),
      views: [...doc.views].reverse(),
      nodes: [...doc.nodes].reverse(),
      connections: [...doc.connections].reverse(),
      properties: [...doc.properties].reverse(),
      folders: [...doc.folders].reverse(),
      propertyDefinitions: [...doc.propertyDefinitions].reverse(),
    };
    expect(serializeExchange(shuffled)).toBe(serializeExchange(doc));
  });

  test("is deterministic: serialize(parse(serialize(parse(x)))) equals serialize(parse(x))", () => {
    const once = serializeExchange(parseExchange(readSample("opengroup-examples/ArchiSurance_V3.xml")).document);
    expect(serializeExchange(parseExchange(once).document)).toBe(once);
  });
});
