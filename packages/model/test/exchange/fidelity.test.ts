import { must } from "@ams/shared/testing";
import { describe, expect, test } from "vitest";
import {
  type ConnectionStyleExt,
  type ModelDocument,
  type NodeStyleExt,
  parseExchange,
  serializeExchange,
} from "../../src/exchange/index.ts";
import { readFixture, readSample, schemaErrors } from "./helpers.ts";

const features = readFixture("features.xml");
const doc = parseExchange(features).document;
const exported = serializeExchange(doc);
/** What a user gets back after export and re-import: every check runs on both. */
const reimported = parseExchange(exported).document;

const byId = <T extends { id: string }>(rows: T[], id: string): T => {
  const row = rows.find((r) => r.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

describe.each([
  ["imported", doc],
  ["exported and re-imported", reimported],
] as [string, ModelDocument][])("features.xml %s", (_label, d) => {
  test("model name, documentation, version and Dublin Core metadata", () => {
    expect(d.model.identifier).toBe("id-model");
    expect(d.model.version).toBe("2.5");
    expect(d.model.name).toBe("Features");
    expect(d.model.i18n?.name).toEqual([
      { lang: "en", value: "Features" },
      { lang: "fr", value: "Fonctionnalités" },
    ]);
    expect(d.model.documentation).toBe("Line one\n  line two & <three>");
    expect(d.model.i18n?.documentation?.map((l) => l.lang)).toEqual(["en", "de"]);
    expect(d.model.metadata).toEqual({
      schema: "Dublin Core",
      schemaversion: "1.1",
      entries: [
        { name: "dc:title", value: "Feature model", lang: "en" },
        { name: "dc:creator", value: "Test Suite" },
        { name: "dc:date", value: "2024-05-01" },
      ],
    });
  });

  test("every language of a multilingual name is kept", () => {
    const actor = byId(d.elements, "id-actor");
    expect(actor.name).toBe("Customer");
    expect(actor.i18n?.name).toEqual([
      { lang: "en", value: "Customer" },
      { lang: "nl", value: "Klant" },
    ]);
    expect(byId(d.elements, "id-role").i18n).toBeNull();
  });

  test("property definitions with their types, and properties on model, elements, relationships and views", () => {
    expect(d.propertyDefinitions.map((p) => [p.id, p.name, p.type])).toEqual([
      ["pd-owner", "Owner", "string"],
      ["pd-count", "Count", "number"],
      ["pd-since", "Since", "date"],
      ["pd-flag", "Flag", "boolean"],
      ["pd-price", "Price", "currency"],
      ["pd-at", "At", "time"],
    ]);
    expect(d.propertyDefinitions[0]?.i18n?.documentation).toEqual([{ lang: null, value: "Who owns it" }]);
    const props = (kind: string, owner: string) =>
      d.properties
        .filter((p) => p.ownerKind === kind && p.ownerId === owner)
        .sort((a, b) => a.ord - b.ord)
        .map((p) => [p.definitionId, p.value]);
    expect(props("model", "")).toEqual([
      ["pd-owner", "Architecture team"],
      ["pd-count", "42"],
    ]);
    const owner = d.properties.find((p) => p.ownerKind === "model" && p.definitionId === "pd-owner");
    expect(owner?.i18n?.value?.map((v) => v.lang)).toEqual(["en", "fr"]);
    expect(props("element", "id-actor")).toEqual([
      ["pd-since", "2020-01-01"],
      ["pd-count", "7"],
    ]);
    expect(props("relationship", "id-r-assoc")).toEqual([["pd-flag", "true"]]);
    expect(props("view", "id-view-main")).toEqual([["pd-owner", "Views team"]]);
  });

  test("relationship attributes, junctions and relationships on relationships", () => {
    expect(byId(d.relationships, "id-r-access").accessType).toBe("ReadWrite");
    expect(byId(d.relationships, "id-r-influence").influenceStrength).toBe("--");
    expect(byId(d.relationships, "id-r-assoc").isDirected).toBe(true);
    expect(byId(d.relationships, "id-r-assign").isDirected).toBeNull();
    expect(byId(d.relationships, "id-r-on-r")).toMatchObject({ sourceId: "id-data", targetId: "id-r-assoc" });
    expect(byId(d.elements, "id-and")).toMatchObject({ type: "AndJunction", name: "" });
    expect(byId(d.elements, "id-or").type).toBe("OrJunction");
    expect(byId(d.relationships, "id-r-j2")).toMatchObject({ sourceId: "id-and", type: "Serving" });
  });

  test("organizations: nested folders with labels in every language and documentation", () => {
    const [business, actors, actor, role, assign, views, main] = d.folders;
    expect(business).toMatchObject({ parentId: null, ord: 0, identifier: "id-f-business", label: "Business" });
    expect(business?.documentation).toBe("Business things");
    expect(business?.i18n?.label?.map((l) => l.value)).toEqual(["Business", "Métier"]);
    expect(actors).toMatchObject({
      parentId: must(business, "the Business folder").id,
      ord: 0,
      label: "Actors",
      refId: null,
    });
    expect([actor?.refId, actor?.parentId, actor?.ord]).toEqual(["id-actor", must(actors, "the Actors folder").id, 0]);
    expect([role?.refId, role?.ord]).toEqual(["id-role", 1]);
    expect([assign?.refId, assign?.parentId, assign?.ord]).toEqual([
      "id-r-assign",
      must(business, "the Business folder").id,
      1,
    ]);
    expect(views).toMatchObject({ parentId: null, ord: 1, label: "Views" });
    expect(main?.refId).toBe("id-view-main");
  });

  test("views keep viewpoint, documentation, nested nodes, labels, containers and styles", () => {
    expect(byId(d.views, "id-view-main")).toMatchObject({
      viewpoint: "Application Cooperation",
      documentation: "The main view",
      ord: 0,
    });
    const nodes = d.nodes.filter((n) => n.viewId === "id-view-main");
    expect(nodes.map((n) => [n.id, n.parentId, n.ord, n.kind])).toEqual([
      ["id-n-group", null, 0, "element"],
      ["id-n-container", "id-n-group", 1, "container"],
      ["id-n-actor", "id-n-container", 2, "element"],
      ["id-n-app", "id-n-container", 3, "element"],
      ["id-n-data", "id-n-group", 4, "element"],
      ["id-n-label", null, 5, "label"],
    ]);
    expect(byId(nodes, "id-n-actor")).toMatchObject({ elementId: "id-actor", x: 40, y: 80, w: 120, h: 55 });
    expect(byId(nodes, "id-n-container").i18n?.label?.map((l) => l.value)).toEqual(["Box", "Boîte"]);
    expect(byId(nodes, "id-n-app").documentation).toBe("node note");
    expect(byId(nodes, "id-n-group").style).toEqual({
      fill: { r: 210, g: 215, b: 215, a: 50 },
      line: { r: 92, g: 92, b: 92 },
      font: { name: "Segoe UI", size: 9.5, style: "bold italic", color: { r: 10, g: 20, b: 30 } },
      lineWidth: 2,
    });
    const label = byId(nodes, "id-n-label");
    expect(label.label).toBe('A note & a "quote"');
    expect(label.style as NodeStyleExt).toEqual({ viewRefs: ["id-view-other"], conceptRef: "id-actor" });
  });

  test("connections: relationship and line kinds, bendpoints in order, attachments, styles, ends on connections", () => {
    const conns = d.connections.filter((c) => c.viewId === "id-view-main");
    expect(conns.map((c) => [c.id, c.ord, c.kind])).toEqual([
      ["id-c-assoc", 0, "relationship"],
      ["id-c-line", 1, "line"],
      ["id-c-access", 2, "relationship"],
    ]);
    const assoc = byId(conns, "id-c-assoc");
    expect(assoc).toMatchObject({ relationshipId: "id-r-assoc", sourceId: "id-n-actor", targetId: "id-n-app" });
    expect(assoc.label).toBe("uses");
    expect(assoc.bendpoints).toEqual([
      { x: 150, y: 200 },
      { x: 250, y: 200 },
      { x: 300, y: 150 },
    ]);
    expect(assoc.style as ConnectionStyleExt).toEqual({
      line: { r: 255, g: 0, b: 0, a: 80 },
      font: { name: "Arial", size: 8 },
      lineWidth: 3,
      sourceAttachment: { x: 100, y: 107 },
      targetAttachment: { x: 240, y: 107 },
    });
    expect(byId(conns, "id-c-line")).toMatchObject({
      relationshipId: null,
      sourceId: "id-n-label",
      targetId: "id-c-assoc",
    });
  });
});

describe("features.xml export", () => {
  test("validates and is stable", () => {
    expect(schemaErrors(exported)).toBe("");
    expect(reimported).toEqual(doc);
    expect(serializeExchange(reimported)).toBe(exported);
  });

  test("is written in the XSD's order with the 3.1 schema location and the dc namespace", () => {
    expect(exported).toContain(
      'xsi:schemaLocation="http://www.opengroup.org/xsd/archimate/3.0/ http://www.opengroup.org/xsd/archimate/3.1/archimate3_Diagram.xsd',
    );
    expect(exported).toContain('xmlns:dc="http://purl.org/dc/elements/1.1/"');
    const order = ["<name", "<documentation", "<properties>", "<metadata>", "<elements>", "<relationships>"]
      .concat(["<organizations>", "<propertyDefinitions>", "<views>"])
      .map((tag) => exported.indexOf(tag));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  test("the plain column wins over a stale first language when the API changed the name", () => {
    const edited = structuredClone(doc);
    byId(edited.elements, "id-actor").name = "Client";
    const back = parseExchange(serializeExchange(edited)).document;
    expect(byId(back.elements, "id-actor").i18n?.name).toEqual([
      { lang: "en", value: "Client" },
      { lang: "nl", value: "Klant" },
    ]);
  });
});

describe("real files", () => {
  test("Archi's Archisurance: Label and Container nodes, nested nodes, bendpoints, viewRefs, access types", () => {
    const { document } = parseExchange(readSample("archi-tests/archisurance_archi-export.xml"));
    const kinds = new Map<string, number>();
    for (const n of document.nodes) kinds.set(n.kind, (kinds.get(n.kind) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({ element: 222, container: 15, label: 12 });
    expect(document.nodes.filter((n) => n.parentId !== null).length).toBeGreaterThan(100);
    expect(document.connections.filter((c) => c.bendpoints !== null).length).toBeGreaterThan(10);
    expect(document.model.metadata?.entries.map((e) => e.name)).toEqual([
      "dc:date",
      "dc:creator",
      "dc:subject",
      "dc:description",
      "dc:language",
      "dc:title",
    ]);
    const access = document.relationships.filter((r) => r.type === "Access").map((r) => r.accessType);
    expect([access.filter((a) => a === "Write").length, access.filter((a) => a === "Read").length]).toEqual([11, 3]);
  });

  test("Sparx EA (windows-1252): the Line connection is kept", () => {
    const { document } = parseExchange(readSample("tool-exports/aoeff_3_0_sparx.xml"));
    const line = byId(document.connections, "EAID_DC000000_C5AD_4c44_A860_54D0D0556E7E");
    expect(line.kind).toBe("line");
    expect(line.relationshipId).toBeNull();
  });

  test("The Open Group's everything.xml: relationships on relationships, junctions, influence modifier", () => {
    const { document } = parseExchange(readSample("opengroup-examples/everything.xml"));
    const ids = new Set(document.relationships.map((r) => r.id));
    expect(document.relationships.filter((r) => ids.has(r.targetId) || ids.has(r.sourceId)).length).toBeGreaterThan(0);
    expect(document.elements.filter((e) => e.type.endsWith("Junction")).map((e) => e.type)).toEqual([
      "AndJunction",
      "AndJunction",
      "OrJunction",
    ]);
    expect(byId(document.relationships, "id-56731509").influenceStrength).toBe("++");
  });

  test("bendpoint.test.xml: source and target attachments", () => {
    const { document } = parseExchange(readSample("archi-tests/bendpoint.test.xml"));
    // The file draws two connections; a loop over none would assert nothing.
    expect(document.connections).toHaveLength(2);
    for (const c of document.connections) {
      const style = c.style as ConnectionStyleExt;
      expect(style.sourceAttachment).toBeDefined();
      expect(style.targetAttachment).toBeDefined();
    }
  });

  test("aoeff_3_1.xml: properties on undeclared definitions are kept with created definitions and warnings", () => {
    const { document, warnings } = parseExchange(readSample("tool-exports/aoeff_3_1.xml"));
    expect(document.propertyDefinitions.map((p) => [p.id, p.name, p.type])).toEqual([
      ["Description", "Description", "string"],
      ["Maturity", "Maturity", "string"],
      ["propdef-Has-Owner", "Has Owner", "string"],
    ]);
    expect(document.properties.map((p) => [p.definitionId, p.value])).toEqual([
      ["Description", "Attribute value string"],
      ["Maturity", "3"],
      ["propdef-Has-Owner", "true"],
    ]);
    expect(warnings.map((w) => w.path)).toEqual([
      "identifier Description",
      "identifier Maturity",
      "identifier Has Owner",
    ]);
    expect(schemaErrors(serializeExchange(document))).toBe("");
  });

  test("relationships the 3.1 table forbids are imported with a warning, or refused when strict", () => {
    const source = readSample("tool-exports/aoeff_3_1_archi_5_0_2.xml");
    const { document, warnings } = parseExchange(source);
    const forbidden = warnings.filter((w) => w.message.includes("not allowed by the ArchiMate 3.1 relationship table"));
    expect(forbidden.map((w) => w.path)).toContain("identifier id-aa1a389779154b3f993d26e07d528183");
    expect(document.relationships.some((r) => r.id === "id-aa1a389779154b3f993d26e07d528183")).toBe(true);
    expect(() => parseExchange(source, { strictRelationships: true })).toThrow(/relationship table/);
  });
});
