import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, matchesGlob } from "node:path";

/** The patterns of a .dockerignore file, in order (a leading ! re-includes). */
export function readDockerignore(path: string): { pattern: string; negate: boolean }[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => ({
      negate: line.startsWith("!"),
      pattern: line.replace(/^!/, "").replace(/^\/+/, "").replace(/\/+$/, ""),
    }));
}

/** Docker's rule: the last matching pattern decides; a pattern matches a path or any of its parent folders. */
export function ignored(rules: { pattern: string; negate: boolean }[], path: string): boolean {
  const parts = path.split("/");
  let result = false;
  for (const { pattern, negate } of rules) {
    for (let i = 1; i <= parts.length; i++) {
      if (matchesGlob(parts.slice(0, i).join("/"), pattern)) {
        result = !negate;
        break;
      }
    }
  }
  return result;
}

/** The files a build with this context root sends to the builder, with their total size. */
export function buildContext(root: string): { files: string[]; bytes: number } {
  const rules = readDockerignore(join(root, ".dockerignore"));
  const canReinclude = rules.some((r) => r.negate);
  const files: string[] = [];
  let bytes = 0;
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // A folder is skipped whole when ignored and no later pattern could bring a file of it back.
        if (ignored(rules, path) && !(canReinclude && rules.some((r) => r.negate && r.pattern.startsWith(path))))
          continue;
        walk(path);
      } else if (!ignored(rules, path)) {
        files.push(path);
        bytes += lstatSync(join(root, path)).size;
      }
    }
  };
  walk("");
  return { files, bytes };
}
