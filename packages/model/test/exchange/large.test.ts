import { must } from "@ams/shared/testing";
import { describe, expect, test } from "vitest";
import { type ModelDocument, parseExchange, serializeExchange } from "../../src/exchange/index.ts";
import { schemaErrors } from "./helpers.ts";

const TYPES = ["BusinessActor", "BusinessRole", "ApplicationComponent", "Node", "DataObject", "Goal", "Capability"];

/** A large model built row by row, independent of any sample file. */
function buildLargeModel(elementCount: number): ModelDocument {
  const doc: ModelDocument = {
    model: {
      identifier: "id-large",
      name: "Large",
      metadata: { entries: [{ name: "dc:creator", value: "generator" }] },
    },
    propertyDefinitions: [
      { id: "pd-owner", ord: 0, name: "Owner", type: "string", isSystem: false, i18n: null },
      { id: "pd-cost", ord: 1, name: "Cost", type: "number", isSystem: false, i18n: null },
    ],
    elements: [],
    relationships: [],
    views: [],
    nodes: [],
    connections: [],
    properties: [],
    folders: [
      {
        id: 1,
        parentId: null,
        ord: 0,
        identifier: "id-folder",
        label: "All",
        documentation: null,
        refId: null,
        i18n: null,
      },
    ],
  };
  for (let i = 0; i < elementCount; i++) {
    const name = `Element ${i} <${i % 7}> & co`;
    doc.elements.push({
      id: `id-e${i}`,
      ord: i,
      type: must(TYPES[i % TYPES.length], "a type"),
      name,
      documentation: i % 5 === 0 ? `Documentation of ${i}\nsecond line` : null,
      i18n:
        i % 3 === 0
          ? {
              name: [
                { lang: "en", value: name },
                { lang: "de", value: `Element ${i} (de)` },
              ],
            }
          : null,
    });
    if (i % 10 === 0) {
      doc.properties.push({
        ownerKind: "element",
        ownerId: `id-e${i}`,
        ord: 0,
        definitionId: "pd-owner",
        value: `team ${i % 13}`,
        i18n: null,
      });
      doc.properties.push({
        ownerKind: "element",
        ownerId: `id-e${i}`,
        ord: 1,
        definitionId: "pd-cost",
        value: String(i * 3),
        i18n: null,
      });
    }
    doc.folders.push({
      id: i + 2,
      parentId: 1,
      ord: i,
      identifier: null,
      label: null,
      documentation: null,
      refId: `id-e${i}`,
      i18n: null,
    });
  }
  for (let i = 1; i < elementCount; i++) {
    doc.relationships.push({
      id: `id-r${i}`,
      ord: i - 1,
      type: "Association",
      sourceId: `id-e${i - 1}`,
      targetId: `id-e${i}`,
      name: i % 4 === 0 ? `link ${i}` : null,
      documentation: null,
      isDirected: i % 2 === 0 ? true : null,
      accessType: null,
      influenceStrength: null,
      i18n: null,
    });
  }
  for (let v = 0; v * 100 < elementCount; v++) {
    const viewId = `id-v${v}`;
    doc.views.push({
      id: viewId,
      ord: v,
      name: `View ${v}`,
      viewpoint: v % 2 ? "Layered" : null,
      documentation: null,
      i18n: null,
    });
    for (let k = 0; k < 100 && v * 100 + k < elementCount; k++) {
      const i = v * 100 + k;
      doc.nodes.push({
        id: `id-n${i}`,
        viewId,
        parentId: k % 10 === 0 ? null : `id-n${i - (k % 10)}`,
        ord: k,
        kind: "element",
        elementId: `id-e${i}`,
        x: (k % 10) * 150,
        y: Math.floor(k / 10) * 80,
        w: 120,
        h: 55,
        label: null,
        documentation: null,
        i18n: null,
        style:
          k % 10 === 0
            ? { fill: { r: 255, g: 255, b: 181, a: 100 }, line: { r: 92, g: 92, b: 92 }, lineWidth: 1 }
            : null,
      });
      if (k > 0) {
        doc.connections.push({
          id: `id-c${i}`,
          viewId,
          ord: k - 1,
          kind: "relationship",
          relationshipId: `id-r${i}`,
          sourceId: `id-n${i - 1}`,
          targetId: `id-n${i}`,
          bendpoints:
            k % 3 === 0
              ? [
                  { x: k, y: 2 * k },
                  { x: k + 5, y: 2 * k },
                ]
              : null,
          label: null,
          documentation: null,
          i18n: null,
          style: null,
        });
      }
    }
  }
  return doc;
}

describe("a generated model of 20k elements", () => {
  test("exports a schema-valid document that re-imports to the same rows", { timeout: 120_000 }, () => {
    const doc = buildLargeModel(20_000);
    let started = performance.now();
    const xml = serializeExchange(doc);
    const serializeMs = performance.now() - started;
    expect(schemaErrors(xml)).toBe("");
    started = performance.now();
    const { document, warnings } = parseExchange(xml);
    const parseMs = performance.now() - started;
    console.info(
      `20k elements: ${(xml.length / 1e6).toFixed(1)} MB, serialize ${serializeMs.toFixed(0)} ms, parse ${parseMs.toFixed(0)} ms`,
    );
    expect(warnings).toEqual([]);
    expect(document).toEqual(doc);
    expect(serializeExchange(document)).toBe(xml);
    // Linear and lean: a quadratic step would blow far past these on any machine.
    expect(serializeMs).toBeLessThan(20_000);
    expect(parseMs).toBeLessThan(20_000);
  });
});
