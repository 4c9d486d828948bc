import { AppError, type FieldError } from "@ams/shared";
import { describe, expect, test } from "vitest";
import { type ParseOptions, parseExchange } from "../../src/exchange/index.ts";
import { readSample } from "./helpers.ts";

/** The refusal a parse ends in: always a 422-mapped AppError carrying the field errors. */
function refusal(xml: string, opts?: ParseOptions): { message: string; errors: FieldError[] } {
  try {
    parseExchange(xml, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe("VALIDATION");
    return { message: e.message, errors: e.errors ?? [] };
  }
  throw new Error("the document was accepted");
}

const HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="id-m">\n<name>M</name>\n';

/** A small model: elements a, b (and whatever extra elements, relationships and views are passed in). */
const model = (parts: { elements?: string; relationships?: string; tail?: string }) =>
  `${HEAD}<elements>
<element identifier="a" xsi:type="BusinessActor"><name>A</name></element>
<element identifier="b" xsi:type="BusinessRole"><name>B</name></element>
${parts.elements ?? ""}</elements>
<relationships>
<relationship identifier="r1" source="a" target="b" xsi:type="Assignment"/>
${parts.relationships ?? ""}</relationships>
${parts.tail ?? ""}</model>`;

const view = (body: string) => `<views><diagrams><view identifier="v1" xsi:type="Diagram"><name>V</name>
<node identifier="n1" elementRef="a" xsi:type="Element" x="0" y="0" w="10" h="10"/>
<node identifier="n2" elementRef="b" xsi:type="Element" x="0" y="0" w="10" h="10"/>
${body}</view></diagrams></views>`;

describe("not an exchange file", () => {
  test.each([
    ["plain text", "hello world", "line 1"],
    ["JSON", '{"model": {}}', "line 1"],
    ["an empty body", "", "line 1"],
    ["a truncated document", `${HEAD}<elements>\n<element identifier="a"`, "line 5"],
    ["mismatched tags", `${HEAD}<elements>\n</model>`, "line 5"],
    ["two root elements", `${HEAD}</model>\n<model/>`, "line 5"],
    ["an unquoted attribute", `${HEAD}<elements x=1></elements></model>`, "line 4"],
    ["an undefined entity", `${HEAD}\n\n<documentation>&nbsp;</documentation></model>`, "line 6"],
    ["a bare ampersand", `${HEAD}<documentation>R&D</documentation></model>`, "line 4"],
  ])("%s is refused with its line", (_what, xml, path) => {
    const { errors } = refusal(xml);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe(path);
    expect(errors[0]?.message).toMatch(/XML/);
  });

  test("another XML vocabulary is refused", () => {
    const { errors } = refusal('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>');
    expect(errors[0]).toEqual({
      path: "line 2",
      message: expect.stringContaining("not an ArchiMate 3.x exchange file"),
    });
  });

  test("a <model> without the namespace is refused saying what was found", () => {
    const { errors } = refusal('<?xml version="1.0"?>\n<model identifier="m"><name>x</name></model>');
    expect(errors[0]!.path).toBe("line 2");
    expect(errors[0]!.message).toContain("found <model> without a namespace (xmlns is missing)");
    const other = refusal('<?xml version="1.0"?>\n<model xmlns="http://example.com/not-archimate"/>');
    expect(other.errors[0]!.message).toContain("found <model> in namespace http://example.com/not-archimate");
    const prefixed = refusal('<?xml version="1.0"?>\n<a:model/>');
    expect(prefixed.errors[0]!.message).toContain("found <a:model> whose prefix 'a' is not declared");
  });

  test("the ArchiMate 2.1 namespace is refused as unsupported", () => {
    const { message, errors } = refusal(readSample("legacy-v2.1/Archisurance_v2.1.xml"));
    expect(errors).toEqual([{ path: "line 2", message: expect.stringContaining("ArchiMate 2.1") }]);
    expect(message).toMatch(/not supported/);
  });
});

describe("safety", () => {
  test("an entity-expansion bomb (billion laughs) is refused at once", () => {
    const entities = Array.from({ length: 10 }, (_, i) =>
      i === 0 ? '<!ENTITY lol0 "lol">' : `<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`,
    ).join("\n");
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE model [\n${entities}\n]>\n${HEAD.split("\n")[1]}<name>&lol9;</name></model>`;
    const started = performance.now();
    const { errors } = refusal(bomb);
    expect(performance.now() - started).toBeLessThan(50);
    expect(errors).toEqual([{ path: "line 2", message: expect.stringContaining("DOCTYPE") }]);
  });

  test("external entities are refused without being fetched", () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE model [<!ENTITY x SYSTEM "file:///etc/passwd">]><model>&x;</model>`;
    expect(refusal(xxe)?.errors[0]?.message).toMatch(/DOCTYPE/);
  });

  test("markup declarations and processing instructions inside the document are refused", () => {
    expect(refusal(`${HEAD}<!ENTITY x "y"></model>`)?.errors[0]?.message).toMatch(/ENTITY/);
    expect(refusal(`${HEAD}<?php echo 1; ?></model>`)?.errors[0]?.message).toMatch(/processing instructions/);
    expect(refusal(`<?xml-stylesheet href="x.xsl"?>${HEAD}</model>`)?.errors[0]?.path).toBe("line 1");
  });

  test.each([10_000, 1_000_000])("%i nested elements are refused without a stack overflow", (depth) => {
    const deep = `${HEAD}${"<x>".repeat(depth)}${"</x>".repeat(depth)}</model>`;
    const { errors } = refusal(deep);
    expect(errors[0]).toEqual({ path: "line 4", message: expect.stringContaining("deeper than 200") });
  });

  test("an element with thousands of attributes is refused before the repeat check gets expensive", () => {
    const attrs = Array.from({ length: 50_000 }, (_, i) => `a${i}="x"`).join(" ");
    const started = performance.now();
    expect(refusal(`${HEAD}<elements ${attrs}/></model>`)?.errors[0]?.message).toMatch(/more than 256 attributes/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("the depth limit is an option", () => {
    const nested = `${HEAD}${"<x>".repeat(20)}${"</x>".repeat(20)}</model>`;
    expect(refusal(nested, { maxDepth: 10 })?.errors[0]?.message).toMatch(/deeper than 10/);
    expect(parseExchange(nested, { maxDepth: 30 }).document.model.name).toBe("M");
  });
});

describe("model problems name the identifier", () => {
  test("unknown element and relationship types", () => {
    const { errors } = refusal(
      model({
        elements: '<element identifier="x" xsi:type="Spaceship"><name>X</name></element>\n',
        relationships: '<relationship identifier="r2" source="a" target="b" xsi:type="Teleports"/>\n',
      }),
    );
    expect(errors).toEqual([
      { path: "identifier x", message: "unknown element type 'Spaceship'" },
      { path: "identifier r2", message: "unknown relationship type 'Teleports'" },
    ]);
  });

  test("dangling references of relationships, nodes, connections and organizations", () => {
    const { errors } = refusal(
      model({
        relationships: '<relationship identifier="r2" source="a" target="ghost" xsi:type="Serving"/>\n',
        tail:
          '<organizations><item identifierRef="nowhere"/></organizations>\n' +
          view(
            '<node identifier="n3" elementRef="missing" xsi:type="Element" x="0" y="0" w="10" h="10"/>\n' +
              '<connection identifier="c1" relationshipRef="r404" xsi:type="Relationship" source="n1" target="n2"/>\n' +
              '<connection identifier="c2" relationshipRef="r1" xsi:type="Relationship" source="n1" target="n9"/>\n',
          ),
      }),
    );
    expect(errors.map((e) => e.path).sort()).toEqual(
      ["identifier c1", "identifier c2", "identifier n3", "identifier r2", "organization item '1'"].sort(),
    );
    expect(errors.find((e) => e.path === "identifier r2")?.message).toBe("target 'ghost' does not exist");
    expect(errors.find((e) => e.path === "identifier n3")?.message).toBe("elementRef 'missing' does not exist");
  });

  test("a reference to the wrong kind of thing", () => {
    const { errors } = refusal(
      model({ tail: view('<node identifier="n3" elementRef="r1" xsi:type="Element" x="0" y="0" w="10" h="10"/>\n') }),
    );
    expect(errors).toEqual([{ path: "identifier n3", message: "elementRef 'r1' is a relationship, not an element" }]);
  });

  test("duplicate identifiers across concepts, views and nodes", () => {
    const { errors } = refusal(
      model({
        relationships: '<relationship identifier="a" source="a" target="b" xsi:type="Serving"/>\n',
        tail: view('<node identifier="b" elementRef="a" xsi:type="Element" x="0" y="0" w="10" h="10"/>\n'),
      }),
    );
    expect(errors.map((e) => e.path)).toEqual(["identifier a", "identifier b"]);
    expect(errors[0]?.message).toMatch(/duplicate identifier 'a' \(line \d+\)/);
  });

  test("an identifier that is not an xs:ID", () => {
    const { errors } = refusal(
      model({ elements: '<element identifier="1st" xsi:type="Goal"><name>G</name></element>' }),
    );
    expect(errors).toEqual([{ path: "identifier 1st", message: "'1st' is not a valid XML identifier (xs:ID)" }]);
  });

  test("many problems are collected, up to 50", () => {
    const bad = Array.from(
      { length: 80 },
      (_, i) => `<element identifier="u${i}" xsi:type="Nope"><name>U</name></element>`,
    );
    const { message, errors } = refusal(model({ elements: bad.join("\n") }));
    expect(errors).toHaveLength(50);
    expect(message).toMatch(
      /^The exchange file was refused: identifier u0: unknown element type 'Nope' \(and 49 more problems\)$/,
    );
  });
});
