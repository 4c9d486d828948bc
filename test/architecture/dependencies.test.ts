import { describe, expect, test } from "vitest";
import { cycles, importGraph, importsOf, importsWithKind } from "./import-graph.ts";

/**
 * The dependency layers, bottom up: packages/shared, then packages/db, packages/model, packages/graph (the Neo4j
 * side of the model's graph), then the services, then apps/web (the browser UI, which nothing imports). A unit may
 * import only the units listed for it: an import that goes up a layer, sideways between services (except control
 * composing the standalone shape), or into another unit's files by a relative path fails here, and so does any import
 * cycle among source files.
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
  // The browser UI: which of these it may bundle and which it may read types from only is BROWSER below.
  "apps/web": ["@ams/control", "@ams/model", "@ams/shared"],
};

/**
 * What the browser UI may import, as written. It runs code only from `@ams/shared` (bundled as its browser entry: the
 * metamodel and notation) and `@ams/model/render` (the view renderer). From the model's verbs and from control's verb
 * modules it takes types only, as its API client does, so a change in a verb's answer fails the UI's type-check
 * while no server code reaches the bundle.
 */
const BROWSER = {
  code: [/^@ams\/shared$/, /^@ams\/model\/render$/],
  typesOnly: [/^@ams\/model$/, /^@ams\/control\/verbs\/[a-z-]+\.ts$/],
};
const browserMayImport = (spec: string, typeOnly: boolean) =>
  BROWSER.code.some((re) => re.test(spec)) || (typeOnly && BROWSER.typesOnly.some((re) => re.test(spec)));
/** The model's entry the browser bundles. */
const RENDER_ENTRY = "packages/model/src/render/index.ts";
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

  test("the browser UI bundles no server code: shared and the renderer as code, verbs as types only", () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph.workspaceImports) {
      if (unitOf(file) !== "apps/web") continue;
      for (const { spec, typeOnly } of imports)
        if (!browserMayImport(spec, typeOnly)) wrong.push(`${file} imports ${typeOnly ? "types from " : ""}${spec}`);
    }
    expect(wrong).toEqual([]);
  });

  test("the renderer the browser bundles runs no database code (its types are fine)", () => {
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const next of graph.files.get(file) ?? []) visit(next);
    };
    visit(RENDER_ENTRY);
    expect(reached.size).toBeGreaterThan(1);
    const wrong = [...reached].flatMap((file) =>
      (graph.workspaceImports.get(file) ?? [])
        .filter(({ spec, typeOnly }) => !typeOnly && spec !== "@ams/shared")
        .map(({ spec }) => `${file} imports ${spec}`),
    );
    expect(wrong).toEqual([]);
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

  test("type-only imports are told apart from imports that bundle code", () => {
    const source = [
      'import type { A } from "@ams/model";',
      'import { type B, type C } from "@ams/model";',
      'import { type D, e } from "@ams/db";',
      'import * as f from "@ams/graph";',
      'export type { G } from "@ams/tenant";',
      'type H = typeof import("@ams/control/verbs/members.ts");',
      'const i = await import("@ams/mcp");',
    ].join("\n");
    expect(importsWithKind(source)).toEqual([
      { spec: "@ams/model", typeOnly: true },
      { spec: "@ams/model", typeOnly: true },
      { spec: "@ams/db", typeOnly: false },
      { spec: "@ams/graph", typeOnly: false },
      { spec: "@ams/tenant", typeOnly: true },
      { spec: "@ams/control/verbs/members.ts", typeOnly: true },
      { spec: "@ams/mcp", typeOnly: false },
    ]);
    expect(browserMayImport("@ams/model/render", false)).toBe(true);
    expect(browserMayImport("@ams/model", true)).toBe(true);
    expect(browserMayImport("@ams/model", false)).toBe(false);
    expect(browserMayImport("@ams/control/verbs/members.ts", false)).toBe(false);
    expect(browserMayImport("@ams/control", true)).toBe(false);
    expect(browserMayImport("@ams/db", true)).toBe(false);
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
