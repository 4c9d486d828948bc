import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  DEFAULT_SHARED_DIR,
  GENERATED_PATH,
  generateMetamodel,
  parseXml,
  readSources,
} from "../scripts/generate-metamodel.ts";
import {
  allowedRelationships,
  type Concept,
  ELEMENT_TYPES,
  type ElementType,
  findViewpoint,
  isElementType,
  isRelationshipAllowed,
  LAYERS,
  layerOf,
  RELATIONSHIP_CONCEPT,
  RELATIONSHIP_TYPES,
  resolveElementType,
  resolveRelationshipType,
  VIEWPOINTS,
  viewpointAllows,
} from "../src/metamodel/index.ts";

const types = ELEMENT_TYPES.map((t) => t.name);
const junctions: ElementType[] = ["AndJunction", "OrJunction"];
const ofLayers = (...layers: string[]) => ELEMENT_TYPES.filter((t) => layers.includes(t.layer)).map((t) => t.name);

describe("catalogue", () => {
  test("has the XSD's 62 element types, 11 relationship types, 25 viewpoints and SPEC's 8 layers", () => {
    expect(ELEMENT_TYPES).toHaveLength(62);
    expect(new Set(types).size).toBe(62);
    expect(types).toContain("AndJunction");
    expect(types).toContain("OrJunction");
    expect(types).not.toContain("Junction");
    expect(RELATIONSHIP_TYPES.map((t) => t.name)).toEqual([
      "Composition",
      "Aggregation",
      "Assignment",
      "Realization",
      "Serving",
      "Access",
      "Influence",
      "Triggering",
      "Flow",
      "Specialization",
      "Association",
    ]);
    expect(VIEWPOINTS).toHaveLength(25);
    expect(LAYERS).toEqual([
      "Business",
      "Application",
      "Technology",
      "Physical",
      "Motivation",
      "Strategy",
      "Implementation",
      "Composite",
    ]);
  });

  test("labels and layers follow SPEC.md", () => {
    expect(ELEMENT_TYPES.find((t) => t.name === "ApplicationComponent")).toEqual({
      name: "ApplicationComponent",
      label: "Application Component",
      layer: "Application",
      archiName: "ApplicationComponent",
    });
    expect(ELEMENT_TYPES.find((t) => t.name === "OrJunction")).toMatchObject({
      label: "Or Junction",
      archiName: "Junction",
    });
    expect(ELEMENT_TYPES.find((t) => t.name === "CourseOfAction")?.label).toBe("Course Of Action");
    expect(layerOf("Equipment")).toBe("Physical");
    expect(layerOf("Location")).toBe("Composite");
    expect(layerOf("Gap")).toBe("Implementation");
    expect(ofLayers("Business")).toHaveLength(13);
    expect(ofLayers("Composite")).toEqual(["Grouping", "Location", "AndJunction", "OrJunction"]);
  });
});

describe("name resolution", () => {
  test.each([
    ["ApplicationComponent", "ApplicationComponent"],
    ["Application Component", "ApplicationComponent"],
    ["application component", "ApplicationComponent"],
    ["Application-Component", "ApplicationComponent"],
    ["APPLICATION_COMPONENT", "ApplicationComponent"],
    ["Junction", "AndJunction"],
    ["junction", "AndJunction"],
    ["Or Junction", "OrJunction"],
    ["course of action", "CourseOfAction"],
    [" Data Object ", "DataObject"],
  ])("element %j -> %s", (input, expected) => {
    expect(resolveElementType(input)).toBe(expected);
  });

  test.each(["", "Relationship", "Application", "ApplicationComponents", "Serving", "archimate:Node"])(
    "element %j is unknown",
    (input) => {
      expect(resolveElementType(input)).toBeUndefined();
    },
  );

  test.each([
    ["Serving", "Serving"],
    ["serving", "Serving"],
    ["ServingRelationship", "Serving"],
    ["serving relationship", "Serving"],
    ["Realisation", "Realization"],
    ["RealisationRelationship", "Realization"],
    ["specialisation", "Specialization"],
    ["Specialization", "Specialization"],
    ["ASSOCIATION", "Association"],
  ])("relationship %j -> %s", (input, expected) => {
    expect(resolveRelationshipType(input)).toBe(expected);
  });

  test.each(["", "Relationship", "Uses", "UsedBy", "Junction"])("relationship %j is unknown", (input) => {
    expect(resolveRelationshipType(input)).toBeUndefined();
  });

  test("isElementType accepts exchange names only", () => {
    expect(isElementType("BusinessActor")).toBe(true);
    expect(isElementType("Business Actor")).toBe(false);
    expect(isElementType("Junction")).toBe(false);
  });
});

describe("relationship rules (ArchiMate 3.1, Archi's table)", () => {
  test("known single rules", () => {
    expect(isRelationshipAllowed("Serving", "ApplicationComponent", "BusinessProcess")).toBe(true);
    expect(isRelationshipAllowed("Assignment", "BusinessActor", "BusinessRole")).toBe(true);
    expect(isRelationshipAllowed("Access", "ApplicationProcess", "DataObject")).toBe(true);
    expect(isRelationshipAllowed("Realization", "ApplicationComponent", "ApplicationService")).toBe(true);
    expect(isRelationshipAllowed("Assignment", "BusinessRole", "BusinessActor")).toBe(false);
    expect(isRelationshipAllowed("Access", "DataObject", "ApplicationProcess")).toBe(false);
    expect(isRelationshipAllowed("Triggering", "BusinessObject", "BusinessProcess")).toBe(false);
    expect(allowedRelationships("ApplicationComponent", "BusinessProcess")).toEqual([
      "Realization",
      "Serving",
      "Triggering",
      "Flow",
      "Association",
    ]);
  });

  test("a data object serves nothing", () => {
    for (const target of [...types, RELATIONSHIP_CONCEPT] as Concept[]) {
      expect(isRelationshipAllowed("Serving", "DataObject", target), target).toBe(false);
    }
  });

  test("composition between two elements of the same type, junctions excepted", () => {
    for (const type of types) {
      expect(isRelationshipAllowed("Composition", type, type), type).toBe(!junctions.includes(type));
    }
  });

  test("association between any two elements", () => {
    for (const source of types) {
      for (const target of types) expect(isRelationshipAllowed("Association", source, target)).toBe(true);
    }
  });

  test("relationships on relationships", () => {
    for (const source of types.filter((t) => !junctions.includes(t))) {
      expect(isRelationshipAllowed("Association", source, RELATIONSHIP_CONCEPT), source).toBe(true);
    }
    expect(isRelationshipAllowed("Aggregation", "Grouping", RELATIONSHIP_CONCEPT)).toBe(true);
    expect(isRelationshipAllowed("Composition", "Plateau", RELATIONSHIP_CONCEPT)).toBe(true);
    expect(isRelationshipAllowed("Aggregation", "BusinessActor", RELATIONSHIP_CONCEPT)).toBe(false);
    expect(allowedRelationships(RELATIONSHIP_CONCEPT, "BusinessActor")).toEqual(["Association"]);
    expect(allowedRelationships(RELATIONSHIP_CONCEPT, RELATIONSHIP_CONCEPT)).toEqual([]);
    expect(allowedRelationships("AndJunction", RELATIONSHIP_CONCEPT)).toEqual([]);
  });

  test("a plateau aggregates every core and strategy element, but not motivation or work elements", () => {
    const aggregated = [...ofLayers("Business", "Application", "Technology", "Physical", "Strategy"), "Plateau"];
    for (const target of aggregated as ElementType[]) {
      expect(isRelationshipAllowed("Aggregation", "Plateau", target), target).toBe(true);
    }
    for (const target of ["Stakeholder", "Driver", "Value", "WorkPackage", "Deliverable", "Gap"] as ElementType[]) {
      expect(isRelationshipAllowed("Aggregation", "Plateau", target), target).toBe(false);
    }
  });

  test("specialization relates a type to itself, or within the node family, Contract/Business Object, Constraint/Requirement, or through a Grouping", () => {
    const families = [
      ["Node", "Device", "SystemSoftware", "Equipment", "Facility"],
      ["BusinessObject", "Contract"],
      ["Requirement", "Constraint"],
    ];
    for (const source of types) {
      for (const target of types) {
        const expected =
          !junctions.includes(source) &&
          !junctions.includes(target) &&
          (source === target ||
            source === "Grouping" ||
            target === "Grouping" ||
            families.some((family) => family.includes(source) && family.includes(target)));
        expect(isRelationshipAllowed("Specialization", source, target), `${source} -> ${target}`).toBe(expected);
      }
    }
  });

  test("And and Or junctions share Archi's Junction rules", () => {
    for (const other of [...types, RELATIONSHIP_CONCEPT] as Concept[]) {
      expect(allowedRelationships("AndJunction", other)).toEqual(allowedRelationships("OrJunction", other));
      expect(allowedRelationships(other, "AndJunction")).toEqual(allowedRelationships(other, "OrJunction"));
    }
    expect(allowedRelationships("AndJunction", "OrJunction")).toContain("Triggering");
  });

  test("unknown concepts allow nothing", () => {
    expect(allowedRelationships("Nope" as ElementType, "BusinessActor")).toEqual([]);
    expect(isRelationshipAllowed("Nope" as "Serving", "ApplicationComponent", "BusinessProcess")).toBe(false);
  });

  test("every entry of Archi's source table is reproduced", () => {
    const { table } = readSources(DEFAULT_SHARED_DIR);
    const expand = (c: string): Concept[] => (c === "Junction" ? junctions : [c as Concept]);
    const letterOf = new Map(RELATIONSHIP_TYPES.map((t) => [t.name, t.letter]));
    expect(table).toHaveLength(62 * 62);
    for (const row of table) {
      for (const source of expand(row.source)) {
        for (const target of expand(row.target)) {
          const letters = allowedRelationships(source, target).map((t) => letterOf.get(t));
          expect(letters.sort().join(""), `${source} -> ${target}`).toBe([...row.letters].sort().join(""));
        }
      }
    }
  });
});

describe("viewpoints", () => {
  test("Application Cooperation expands $ApplicationElements$ and always allows grouping and junctions", () => {
    const vp = findViewpoint("Application Cooperation")!;
    expect(vp).toMatchObject({ id: "Application Cooperation", key: "applicationCooperation" });
    expect(vp.archiId).toBe("application_cooperation");
    for (const type of [...ofLayers("Application"), "Location", "Grouping", "AndJunction", "OrJunction"]) {
      expect(viewpointAllows(vp, type as ElementType), type).toBe(true);
    }
    expect(viewpointAllows(vp, "BusinessActor")).toBe(false);
    expect(vp.elementTypes).toHaveLength(9 + 4);
  });

  test("every viewpoint allows Grouping and both junctions; Layered allows everything", () => {
    for (const vp of VIEWPOINTS) {
      for (const type of ["Grouping", ...junctions] as ElementType[]) expect(viewpointAllows(vp, type)).toBe(true);
      expect(vp.relationshipTypes).toHaveLength(11);
    }
    const layered = findViewpoint("layered")!;
    expect(layered.allowsAllElementTypes).toBe(true);
    expect(layered.elementTypes).toEqual(types);
    expect(VIEWPOINTS.filter((vp) => vp.allowsAllElementTypes)).toEqual([layered]);
  });

  test("macros expand to whole layers", () => {
    expect(findViewpoint("Technology")!.elementTypes).toEqual([
      ...ofLayers("Technology"),
      "Grouping",
      "Location",
      ...junctions,
    ]);
    expect(findViewpoint("Motivation")!.elementTypes).toEqual([...ofLayers("Motivation"), "Grouping", ...junctions]);
    const migration = findViewpoint("Implementation and Migration")!;
    for (const type of ofLayers("Business", "Application", "Technology", "Implementation")) {
      expect(viewpointAllows(migration, type)).toBe(true);
    }
    expect(viewpointAllows(migration, "Equipment")).toBe(false);
  });

  test("ids are the exchange format's ViewpointsEnum names", () => {
    const { viewpointNames } = readSources(DEFAULT_SHARED_DIR);
    for (const vp of VIEWPOINTS) expect(viewpointNames, vp.name).toContain(vp.id);
    expect(findViewpoint("capability")?.id).toBe("Capability Map");
    expect(findViewpoint("Resource Map")?.name).toBe("Resource");
  });

  test.each([
    ["Application Cooperation", "Application Cooperation"],
    ["application cooperation", "Application Cooperation"],
    ["Application Co-operation", "Application Cooperation"],
    ["applicationCooperation", "Application Cooperation"],
    ["application_cooperation", "Application Cooperation"],
    ["Capability Map", "Capability Map"],
    ["capabilityMap", "Capability Map"],
    ["Capability", "Capability Map"],
    ["Layered Viewpoint", "Layered"],
    ["implementation_deployment", "Implementation and Deployment"],
  ])("findViewpoint(%j) -> %s", (input, id) => {
    expect(findViewpoint(input)?.id).toBe(id);
  });

  test.each(["", "Viewpoint", "Actor Co-operation", "Application Platform"])(
    "findViewpoint(%j) finds none",
    (input) => {
      expect(findViewpoint(input)).toBeUndefined();
    },
  );
});

describe("generator", () => {
  test("is deterministic and the checked-in generated.ts is current", () => {
    const first = generateMetamodel();
    expect(generateMetamodel()).toBe(first);
    expect(readFileSync(GENERATED_PATH, "utf8")).toBe(first);
    expect(first.startsWith("// generated by packages/shared/scripts/generate-metamodel.ts")).toBe(true);
    expect(first).toContain("do not edit");
  });

  test("the XML reader handles entities, comments and CDATA and refuses malformed input", () => {
    const doc = parseXml(
      `<?xml version="1.0"?><!-- c --><a x='1 &amp; 2'><b>&lt;t&#65;&#x42;&gt;</b><b/><![CDATA[<raw>]]></a>`,
      "t.xml",
    );
    expect(doc.attrs.x).toBe("1 & 2");
    expect(doc.children.map((c) => c.name)).toEqual(["b", "b"]);
    expect(doc.children[0]?.text).toBe("<tAB>");
    expect(doc.text).toBe("<raw>");
    expect(() => parseXml("<a><b></a>", "t.xml")).toThrow(/unexpected <\/a>/);
    expect(() => parseXml("<a>", "t.xml")).toThrow(/unclosed/);
    expect(() => parseXml("<!DOCTYPE a><a/>", "t.xml")).toThrow(/DTD/);
    expect(() => parseXml("<a>&bogus;</a>", "t.xml")).toThrow(/entity/);
    expect(() => parseXml('<a x="1" x="2"/>', "t.xml")).toThrow(/duplicate/);
  });
});
