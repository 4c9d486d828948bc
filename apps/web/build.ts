import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Bundles the browser UI into dist/: hashed asset names (served with long cache headers), an index.html that
 * references them (served uncached), no inline script or style (the page runs under a strict CSP).
 * `ensureWebBuild()` rebuilds only when a source file changed since the last build, so `pnpm start` and the tests
 * always serve a current bundle without a manual step.
 */

const here = fileURLToPath(new URL(".", import.meta.url));
const repo = join(here, "../..");
export const WEB_DIST = join(here, "dist");

/** Everything the bundle is made of: a change in any of these files makes the build stale. */
const SOURCES = [
  join(here, "src"),
  join(here, "build.ts"),
  join(here, "index.html"),
  join(repo, "packages/shared/src"),
  join(repo, "packages/model/src/render"),
];

function walk(path: string, out: string[]): void {
  if (!existsSync(path)) return;
  const st = statSync(path);
  if (st.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name), out);
  else out.push(`${relative(repo, path)}:${st.size}:${st.mtimeMs}`);
}

function fingerprint(): string {
  const files: string[] = [];
  for (const s of SOURCES) walk(s, files);
  return createHash("sha256").update(files.join("\n")).digest("hex");
}

type BuildInfo = { fingerprint: string; js: string; css: string; builtAt: string };

export function readBuildInfo(dist = WEB_DIST): BuildInfo | null {
  try {
    return JSON.parse(readFileSync(join(dist, "build-info.json"), "utf8")) as BuildInfo;
  } catch {
    return null;
  }
}

/** `@ams/shared` in the bundle is its browser entry: the metamodel and notation, nothing that needs Node. */
const browserSafeShared = {
  name: "browser-safe-shared",
  setup(b: { onResolve(o: { filter: RegExp }, cb: () => { path: string }): void }) {
    b.onResolve({ filter: /^@ams\/shared$/ }, () => ({ path: join(repo, "packages/shared/src/browser.ts") }));
  },
};

/**
 * Builds into a fresh folder beside dist/ and swaps it in, so a server reading dist/ (or a second build running at
 * the same time) never sees a half-written bundle.
 */
export async function buildWeb(dist = WEB_DIST): Promise<BuildInfo> {
  const staging = `${dist}.building-${process.pid}-${Date.now()}`;
  const info = await buildInto(staging);
  const retired = `${dist}.old-${process.pid}-${Date.now()}`;
  if (existsSync(dist)) renameSync(dist, retired);
  renameSync(staging, dist);
  rmSync(retired, { recursive: true, force: true });
  return info;
}

async function buildInto(dist: string): Promise<BuildInfo> {
  const { build } = await import("esbuild");
  const print = fingerprint();
  mkdirSync(dist, { recursive: true });
  const result = await build({
    entryPoints: { app: join(here, "src/main.tsx") },
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    jsx: "automatic",
    jsxImportSource: "preact",
    outdir: dist,
    entryNames: "assets/[name]-[hash]",
    assetNames: "assets/[name]-[hash]",
    sourcemap: false,
    metafile: true,
    legalComments: "none",
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
    plugins: [browserSafeShared],
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => relative(dist, join(process.cwd(), p)));
  const js = outputs.find((p) => p.endsWith(".js"));
  const css = outputs.find((p) => p.endsWith(".css"));
  if (!js || !css) throw new Error(`web build produced no script or stylesheet: ${outputs.join(", ")}`);
  const html = readFileSync(join(here, "index.html"), "utf8")
    .replace("%SCRIPT%", `/${js}`)
    .replace("%STYLE%", `/${css}`);
  writeFileSync(join(dist, "index.html"), html);
  const info: BuildInfo = { fingerprint: print, js, css, builtAt: new Date().toISOString() };
  writeFileSync(join(dist, "build-info.json"), JSON.stringify(info, null, 2));
  return info;
}

/** Builds when dist/ is missing or older than its sources; returns whether it built. */
export async function ensureWebBuild(dist = WEB_DIST): Promise<boolean> {
  const info = readBuildInfo(dist);
  if (info && info.fingerprint === fingerprint() && existsSync(join(dist, info.js))) return false;
  await buildWeb(dist);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes("--force");
  const started = performance.now();
  let built = true;
  if (force) await buildWeb();
  else built = await ensureWebBuild();
  const ms = Math.round(performance.now() - started);
  console.log(built ? `browser UI built into apps/web/dist in ${ms} ms` : "browser UI is up to date");
}
