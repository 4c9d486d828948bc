import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** A workspace package: its directory, its name (@ams/...) and its layer. */
export type Unit = { dir: string; name: string };

/**
 * Every `import ... from "x"`, `export ... from "x"` and `import("x")` of a source file. Group 1 is `type ` when the
 * whole statement is type-only, group 2 the clause between the keyword and `from`.
 */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:([^"';]*?)\s+from\s+)?["']([^"']+)["']/g;
/** Group 1 is `typeof ` when the import names a module's type only (`typeof import("x")`), which no bundle keeps. */
const DYNAMIC = /(typeof\s+)?import\(\s*["']([^"']+)["']\s*\)/g;

/** One imported module and whether only types are taken from it (erased by the compiler, never bundled or run). */
export type Import = { spec: string; typeOnly: boolean };

/** `{ type A, type B }`: every named binding marked `type`, and nothing imported by default or as a namespace. */
const allNamedAreTypes = (clause: string) => {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  const names = braces?.[1]
    ?.split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  return names !== undefined && names.length > 0 && names.every((n) => n.startsWith("type "));
};

export function importsWithKind(source: string): Import[] {
  const found: Import[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const [, type, clause, spec] = m;
    if (spec) found.push({ spec, typeOnly: type !== undefined || (clause !== undefined && allNamedAreTypes(clause)) });
  }
  for (const m of source.matchAll(DYNAMIC)) {
    const [, type, spec] = m;
    if (spec) found.push({ spec, typeOnly: type !== undefined });
  }
  return found;
}

export function importsOf(source: string): string[] {
  return importsWithKind(source).map((i) => i.spec);
}

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules") continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if ((path.endsWith(".ts") || path.endsWith(".tsx")) && !path.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

export type ImportGraph = {
  /** file (relative to the root) -> files it imports (relative), within src folders only */
  files: Map<string, string[]>;
  /** file -> the workspace packages (@ams/...) it imports */
  packages: Map<string, string[]>;
  /** file -> its imports of workspace packages, as written (`@ams/model/render`), with whether they are type-only */
  workspaceImports: Map<string, Import[]>;
};

/** The import graph of the `src` folders of the given package directories (relative to the root). */
export function importGraph(unitDirs: string[]): ImportGraph {
  const files = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const workspaceImports = new Map<string, Import[]>();
  for (const unit of unitDirs) {
    for (const file of walk(join(ROOT, unit, "src"))) {
      const rel = relative(ROOT, file);
      const local: string[] = [];
      const external: string[] = [];
      const workspace: Import[] = [];
      for (const found of importsWithKind(readFileSync(file, "utf8"))) {
        const { spec } = found;
        if (spec.startsWith(".")) local.push(relative(ROOT, resolve(dirname(file), spec)));
        else if (spec.startsWith("@ams/")) {
          external.push(spec.split("/").slice(0, 2).join("/"));
          workspace.push(found);
        }
      }
      files.set(rel, local);
      packages.set(rel, external);
      workspaceImports.set(rel, workspace);
    }
  }
  return { files, packages, workspaceImports };
}

/** The import cycles among files (strongly connected components of more than one file, or a file importing itself). */
export function cycles(files: Map<string, string[]>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of files.get(v) ?? []) {
      if (!files.has(w)) continue;
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, indexOf.get(w) ?? 0));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1 || (files.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of files.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}
