import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  type LoadResults,
  loadErrors,
  loadFigures,
  parseJsonLines,
  parseReportLines,
  type SuiteRun,
} from "./compare-stats.ts";

/**
 * A source tree `pnpm bench:compare` runs suites in: this checkout, or a ref built in a worktree of its own;
 * `harness`: the checkout whose bench files it runs (set when they are not its own, see setBench).
 */
export type Tree = { label: string; dir: string; key: string; harness?: string };

/** A suite as bench:compare runs it: a script of the tree's own bench/ with arguments, and how to read its figures. */
export type Suite = { name: string; script: string; args: string[]; kind: "report" | "load"; needsWeb: boolean };

/** `pnpm bench`'s suites that time single requests or single operations, run by name through bench/run.ts. */
const REPORT_SUITES = [
  "resolve",
  "gateway",
  "model-api",
  "mcp",
  "exchange",
  "report",
  "history",
  "graph",
  "drafts",
  "web",
  "web-dashboard",
  "deploy",
];

export const SUITES: Record<string, Suite> = {
  ...Object.fromEntries(
    REPORT_SUITES.map((name) => [
      name,
      { name, script: "bench/run.ts", args: [name], kind: "report", needsWeb: name.startsWith("web") } as Suite,
    ]),
  ),
  "load-standalone": {
    name: "load-standalone",
    script: "bench/load.ts",
    args: ["standalone", "8"],
    kind: "load",
    needsWeb: true,
  },
  "load-split": { name: "load-split", script: "bench/load.ts", args: ["split", "32"], kind: "load", needsWeb: true },
};

export const DEFAULT_SUITES = ["gateway", "load-standalone", "load-split"];

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

/** PATH with this process's Node first, so a tree's ./pnpm finds Node 24 instead of provisioning it again. */
const nodePath = () => `${dirname(process.execPath)}:${process.env.PATH ?? ""}`;

/**
 * The default base: the merge base of HEAD with main; on main itself with nothing uncommitted (where that is HEAD)
 * the commit before it, so the comparison still shows what the last commit changed.
 */
export function defaultRef(root: string): { ref: string; why: string } {
  const head = git(root, "rev-parse", "HEAD");
  const base = git(root, "merge-base", "HEAD", "main");
  const dirty = git(root, "status", "--porcelain", "--untracked-files=no") !== "";
  if (base !== head || dirty) return { ref: base, why: "the merge base with main" };
  return { ref: "HEAD~1", why: "HEAD is main's tip and nothing is uncommitted: the commit before it" };
}

/**
 * `ref` checked out (detached) under .bench-worktrees/<commit>, its dependencies installed with its own
 * `./pnpm install --frozen-lockfile`. Kept between runs: a second comparison against the same commit starts at once.
 */
export function prepareRef(root: string, ref: string): Tree {
  const sha = git(root, "rev-parse", "--verify", `${ref}^{commit}`);
  const dir = join(root, ".bench-worktrees", sha.slice(0, 12));
  if (!existsSync(join(dir, ".git"))) {
    console.log(`      checking out ${ref} (${sha.slice(0, 12)}) in ${dir}`);
    git(root, "worktree", "add", "--detach", dir, sha);
  }
  if (!existsSync(join(dir, "node_modules", ".modules.yaml"))) {
    console.log(`      installing its dependencies (./pnpm install --frozen-lockfile)`);
    execFileSync(join(dir, "pnpm"), ["install", "--frozen-lockfile"], {
      cwd: dir,
      env: { ...process.env, PATH: nodePath() },
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return { label: /^[0-9a-f]{7,40}$/.test(ref) ? ref.slice(0, 9) : `${ref} (${sha.slice(0, 9)})`, dir, key: "base" };
}

/**
 * The ref's bench/ as committed, then (unless `ownBench`) this tree's bench files over it: both trees then run the
 * same harness (workload, iterations, floors) against their own product code, so a difference is the product's.
 * The bench files keep their helpers under bench/ (nothing from a package export or test support the ref may lack);
 * a third-party package they need that the ref does not install is found in this checkout (harnessParent).
 */
export function setBench(root: string, tree: Tree, ownBench: boolean): Tree {
  git(tree.dir, "checkout", "--", "bench");
  git(tree.dir, "clean", "-fdq", "bench");
  if (ownBench) return tree;
  for (const file of readdirSync(join(root, "bench"))) {
    if (file.endsWith(".ts")) cpSync(join(root, "bench", file), join(tree.dir, "bench", file));
  }
  return { ...tree, harness: root };
}

/**
 * Where an import of this checkout's bench files, run in the ref's tree, is resolved again when the ref cannot
 * resolve it: a third-party package of the harness the ref does not install (the load driver's autocannon) is
 * looked up as from the same file in this checkout, i.e. in its node_modules. Only for imports made by a file under
 * the ref's bench/, and never for the product's own packages (@ams/*), relative paths, URLs or Node's built-ins: the
 * product code measured in a tree is always that tree's. Undefined: no second lookup (the error stands).
 */
export function harnessParent(
  specifier: string,
  parentURL: string | undefined,
  treeDir: string,
  harnessDir: string,
): string | undefined {
  const bench = `${pathToFileURL(join(treeDir, "bench")).href}/`;
  if (!parentURL?.startsWith(bench)) return undefined;
  if (/^(?:[./#]|@ams\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)) return undefined;
  return `${pathToFileURL(join(harnessDir, "bench")).href}/${parentURL.slice(bench.length)}`;
}

/** Builds the browser app of a tree (its own apps/web/build.ts) for suites that serve or drive it. */
export function buildWeb(tree: Tree) {
  if (!existsSync(join(tree.dir, "apps/web/build.ts"))) return;
  execFileSync(process.execPath, ["apps/web/build.ts"], { cwd: tree.dir, stdio: ["ignore", "ignore", "inherit"] });
}

export type RunOptions = { seconds: number; neo4j: boolean; logDir: string; round: number };

/**
 * One suite once in one tree, as a process of its own started in that tree (its own bench, its own product code),
 * its output kept under logDir. The figures come from BENCH_RESULTS when the tree's bench writes it, else from its
 * printed lines; a load run's from the results file it names.
 */
export async function runSuite(tree: Tree, suite: Suite, opts: RunOptions): Promise<SuiteRun> {
  if (!existsSync(join(tree.dir, suite.script))) return { missing: `${tree.label} has no ${suite.script}` };
  const stem = join(opts.logDir, `${tree.key}-${suite.name}-${opts.round}`);
  const log = `${stem}.log`;
  const fd = openSync(log, "w");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCH_RESULTS: `${stem}.jsonl`,
    LOAD_SECONDS: String(opts.seconds),
    PATH: nodePath(),
  };
  // This checkout's bench files in the ref's tree: its third-party harness packages may come from this checkout.
  const preload = tree.harness ? ["--import", pathToFileURL(join(tree.dir, "bench", "compare-harness.ts")).href] : [];
  if (tree.harness) env.BENCH_HARNESS = tree.harness;
  // Without Neo4j (the default) the load suites leave explore out: an address where no Neo4j answers.
  if (!opts.neo4j) env.NEO4J_TEST_URL = "bolt://127.0.0.1:9";
  const child = spawn(process.execPath, [...preload, suite.script, ...suite.args], {
    cwd: tree.dir,
    env,
    stdio: ["ignore", fd, fd],
  });
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  const output = readFileSync(log, "utf8");
  if (code !== 0) {
    const tail = output.trim().split("\n").slice(-4).join(" | ");
    return { failed: `exit ${code}: ${tail.slice(0, 400)} (log: ${log})` };
  }
  if (suite.kind === "load") {
    const named = /results: (\S+)\.md/.exec(output);
    if (!named) return { failed: `no results file named in its output (log: ${log})` };
    const results = JSON.parse(readFileSync(`${named[1]}.json`, "utf8")) as LoadResults;
    return { figures: loadFigures(results), errors: loadErrors(results) };
  }
  const jsonl = `${stem}.jsonl`;
  const figures = existsSync(jsonl) ? parseJsonLines(readFileSync(jsonl, "utf8")) : parseReportLines(output);
  if (!figures.length) return { missing: `${tree.label}'s bench/run.ts has no suite '${suite.name}'` };
  return { figures };
}
