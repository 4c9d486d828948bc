import { describe, expect, test } from "vitest";
import { cycles, importGraph, importsOf } from "./import-graph.ts";

/**
 * The dependency layers, bottom up: packages/shared, then packages/db, packages/model, packages/graph (the Neo4j
 * side of the model's graph), then the services. A unit may import only the units listed for it: an import that
 * goes up a layer, sideways between services (except control composing the standalone shape), or into another
 * unit's files by a relative path fails here, and so does any import cycle among source files.
 */
const ALLOWED: Record<string, string[]> = {
  "packages/shared": [],
  "packages/db": ["@ams/shared"],
  "packages/model": ["@ams/db", "@ams/shared"],
  "packages/graph": ["@ams/model", "@ams/db", "@ams/shared"],
  "services/tenant": ["@ams/graph", "@ams/model", "@ams/db", "@ams/shared"],
  // The graph tools (explore, dashboards, rebuild) reach Neo4j through @ams/graph, as the tenant routes do.
  "services/mcp": ["@ams/graph", "@ams/model", "@ams/db", "@ams/shared"],
  "services/graph-worker": ["@ams/graph", "@ams/model", "@ams/db", "@ams/shared"],
  // Control is the edge and the standalone composition root: it runs tenant, mcp and the graph in one process.
  "services/control": ["@ams/tenant", "@ams/mcp", "@ams/graph", "@ams/model", "@ams/db", "@ams/shared"],
};
const UNITS = Object.keys(ALLOWED);
const graph = importGraph(UNITS);
const unitOf = (file: string) => UNITS.find((u) => file.startsWith(`${u}/`));

describe("dependency layers", () => {
  test("reads every unit's sources", () => {
    for (const unit of UNITS)
      expect(
        [...graph.files.keys()].some((f) => f.startsWith(`${unit}/src/`)),
        unit,
      ).toBe(true);
  });

  test("no unit imports a package above it or beside it", () => {
    const wrong: string[] = [];
    for (const [file, packages] of graph.packages) {
      const unit = unitOf(file) ?? "?";
      for (const pkg of packages) if (!ALLOWED[unit]?.includes(pkg)) wrong.push(`${file} imports ${pkg}`);
    }
    expect(wrong).toEqual([]);
  });

  test("no relative import leaves its unit's src folder", () => {
    const wrong: string[] = [];
    for (const [file, locals] of graph.files) {
      const src = `${unitOf(file)}/src/`;
      for (const target of locals) if (!target.startsWith(src)) wrong.push(`${file} imports ${target}`);
    }
    expect(wrong).toEqual([]);
  });

  test("no import cycles among source files", () => {
    expect(cycles(graph.files).map((c) => c.join(" -> "))).toEqual([]);
  });
});

describe("the checks themselves", () => {
  test("import, export-from, type-only and dynamic imports are all read", () => {
    const source = [
      'import { a } from "./a.ts";',
      'import type { B } from "@ams/db";',
      'export * from "./c.ts";',
      'export { d } from "./d.ts";',
      'import "./side-effect.ts";',
      'const e = await import("./e.ts");',
    ].join("\n");
    expect(importsOf(source).sort()).toEqual(
      ["./a.ts", "./c.ts", "./d.ts", "./e.ts", "./side-effect.ts", "@ams/db"].sort(),
    );
  });

  test("a cycle of two files and a file importing itself are found; a chain is not", () => {
    const files = new Map([
      ["a", ["b"]],
      ["b", ["a"]],
      ["c", ["c"]],
      ["d", ["e"]],
      ["e", []],
    ]);
    expect(cycles(files)).toEqual([["a", "b"], ["c"]]);
  });
});
