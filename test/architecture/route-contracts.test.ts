import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { ROOT } from "./import-graph.ts";

/**
 * Every route a service declares goes through the one route-definition helper (`registerRoute` of
 * @ams/shared/http, or control's `controlRoute` over it), so that each route states its input, its output (JSON,
 * or media types for XML, images, ZIP and redirects) and its refusals the same way, and the OpenAPI document is
 * generated from those contracts. A route file that builds an OpenAPI route itself fails here.
 */
const DIRECT = [
  { pattern: /\bcreateRoute\s*\(/, what: "calls createRoute" },
  { pattern: /\bimport\s*\{[^}]*\bcreateRoute\b[^}]*\}\s*from/, what: "imports createRoute" },
  { pattern: /\bapp\.openapi\s*\(/, what: "registers with app.openapi" },
];

/** The lines of `source` that declare a route without the helper, as "what (line n)". */
function directRouteUses(source: string): string[] {
  const found: string[] = [];
  source.split("\n").forEach((line, i) => {
    for (const { pattern, what } of DIRECT) if (pattern.test(line)) found.push(`${what} (line ${i + 1})`);
  });
  return found;
}

/** Where a service declares routes: its routes folder, and control's session profile (its /auth JSON routes). */
const ROUTE_FOLDERS = ["routes", "session"];

function routeFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) files.push(path);
    }
  };
  for (const service of readdirSync(join(ROOT, "services"), { withFileTypes: true })) {
    if (!service.isDirectory()) continue;
    for (const folder of ROUTE_FOLDERS) {
      try {
        walk(join(ROOT, "services", service.name, "src", folder));
      } catch {
        // A service without that folder (the graph worker, MCP) declares no REST routes there.
      }
    }
  }
  return files;
}

describe("route contracts", () => {
  test("the route folders are read (tenant's and control's, control's session profile too)", () => {
    const files = routeFiles().map((f) => relative(ROOT, f));
    expect(files.filter((f) => f.startsWith("services/tenant/src/routes/")).length).toBeGreaterThan(5);
    expect(files.filter((f) => f.startsWith("services/control/src/routes/")).length).toBeGreaterThan(20);
    expect(files).toContain("services/control/src/session/routes.ts");
    expect(files).toContain("services/control/src/session/contracts.ts");
  });

  test("control's session routes declare their JSON routes through controlRoute, not plain app.get/post/delete", () => {
    const plain = routeFiles()
      .filter((f) => relative(ROOT, f).startsWith("services/control/src/session/"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ line, i }))
          .filter(({ line }) => /\bapp\.(get|put|patch|delete)\s*\(/.test(line))
          .map(({ i }) => `${relative(ROOT, file)} line ${i + 1}`),
      );
    expect(plain).toEqual([]);
  });

  test("no route file declares an OpenAPI route without registerRoute", () => {
    const direct = routeFiles().flatMap((file) =>
      directRouteUses(readFileSync(file, "utf8")).map((use) => `${relative(ROOT, file)} ${use}`),
    );
    expect(direct).toEqual([]);
  });

  test("the check itself: createRoute, its import and app.openapi are caught; schema metadata is not", () => {
    const source = [
      'import { createRoute, z } from "@hono/zod-openapi";',
      "const route = createRoute({ method: 'get', path: '/x', responses: {} });",
      "app.openapi(route, (c) => c.json({}));",
      "app.openapi(",
      "app.openapi(createRoute({ method: 'get', path: '/y', responses: {} }), (c) => c.json({}));",
      'const Thing = z.object({ id: z.string() }).openapi("Thing");',
      'const Param = z.string().openapi({ param: { name: "id", in: "path" } });',
      'registerRoute(app, { method: "get", path: "/z" }, (c) => undefined);',
    ].join("\n");
    expect(directRouteUses(source)).toEqual([
      "imports createRoute (line 1)",
      "calls createRoute (line 2)",
      "registers with app.openapi (line 3)",
      "registers with app.openapi (line 4)",
      "calls createRoute (line 5)",
      "registers with app.openapi (line 5)",
    ]);
  });
});
