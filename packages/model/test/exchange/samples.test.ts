import { describe, expect, test } from "vitest";
import { parseExchange, serializeExchange } from "../../src/exchange/index.ts";
import { countTags, identifiersOf, readSample, sampleFiles, schemaErrors } from "./helpers.ts";

describe.each(sampleFiles())("sample %s", (file) => {
  const source = readSample(file);

  test("imports everything, in order, with identifiers kept", () => {
    const { document } = parseExchange(source);
    expect(document.elements.map((e) => e.id)).toEqual(identifiersOf(source, "element"));
    expect(document.relationships.map((r) => r.id)).toEqual(identifiersOf(source, "relationship"));
    expect(document.views.map((v) => v.id)).toEqual(identifiersOf(source, "view"));
    expect(document.nodes.length).toBe(countTags(source, "node"));
    expect(document.connections.length).toBe(countTags(source, "connection"));
    expect(document.connections.map((c) => c.id)).toEqual(identifiersOf(source, "connection"));
    expect(document.folders.length).toBe(countTags(source, "item"));
    expect(document.properties.length).toBe(countTags(source, "property"));
  });

  test("exports a schema-valid document that re-imports to the same rows and bytes", () => {
    const first = parseExchange(source).document;
    const xml = serializeExchange(first);
    expect(schemaErrors(xml)).toBe("");
    const second = parseExchange(xml);
    expect(second.warnings.filter((w) => !w.message.includes("relationship table"))).toEqual([]);
    expect(second.document).toEqual(first);
    expect(serializeExchange(second.document)).toBe(xml);
  });
});
