import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { consoleTable, markdownTable } from "./compare-report.ts";
import { compareSuite, type Figure, type Row, type SuiteRun } from "./compare-stats.ts";
import {
  buildWeb,
  DEFAULT_SUITES,
  defaultRef,
  prepareRef,
  runSuite,
  SUITES,
  type Suite,
  setBench,
  type Tree,
} from "./compare-tree.ts";

/**
 * `pnpm bench:compare [ref] [--rounds N] [--suites a,b] [--seconds S] [--neo4j] [--own-bench]`: this checkout (with
 * its uncommitted changes) against `ref` (default: the merge base with main) checked out in a worktree of its own,
 * running this checkout's bench files there too (--own-bench: each tree's own). The suites run on both
 * trees alternately, round after round (the order flips every round), in one session, so a machine busy with other
 * work weighs on both alike; each figure is printed for both with the ratio of the medians and the noise band (the
 * wider spread of either tree's own rounds), and a ratio outside the band is flagged.
 */
const root = fileURLToPath(new URL("..", import.meta.url));

const USAGE = `usage: pnpm bench:compare [ref] [--rounds N] [--suites a,b] [--seconds S] [--neo4j] [--own-bench]
  ref          the tree to compare this checkout with (default: the merge base with main)
  --rounds     rounds per suite and tree, alternating (default 3)
  --suites     comma-separated, from: ${Object.keys(SUITES).join(", ")} (default ${DEFAULT_SUITES.join(",")})
  --seconds    length of each load run (default 10)
  --neo4j      start Neo4j so that the load mix includes explore
  --own-bench  run each tree's own bench files (default: this checkout's on both)`;

const args = (() => {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        rounds: { type: "string", default: "3" },
        suites: { type: "string", default: DEFAULT_SUITES.join(",") },
        seconds: { type: "string", default: "10" },
        neo4j: { type: "boolean", default: false },
        "own-bench": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
})();
if (args.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const { values, positionals } = args;
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const suites: Suite[] = values.suites.split(",").map((name) => {
  const suite = SUITES[name.trim()];
  if (!suite) throw new Error(`unknown suite '${name}': choose from ${Object.keys(SUITES).join(", ")}`);
  return suite;
});
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a whole number >= 1 (got ${values.rounds})`);
if (!(seconds >= 1)) throw new Error(`--seconds must be a number >= 1 (got ${values.seconds})`);
if (positionals.length > 1) throw new Error(`one ref at most (got ${positionals.join(" ")})`);

const chosen = positionals[0] ? { ref: positionals[0], why: "given" } : defaultRef(root);
const git = (...args: string[]) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
const headCommit = `HEAD ${git("rev-parse", "--short=9", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " + uncommitted changes" : ""}`;
const base = setBench(root, prepareRef(root, chosen.ref), values["own-bench"]);
const head: Tree = { label: "this tree", dir: root, key: "head" };
const labels = { base: base.label, head: head.label };
console.log(
  `bench:compare: ${head.label} (${headCommit}) against ${base.label} (${chosen.why}); ` +
    `${rounds} rounds of ${suites.map((s) => s.name).join(", ")}; ${values["own-bench"] ? "each tree's own bench" : "this tree's bench files on both"}; load runs ${seconds} s; Neo4j ${values.neo4j ? "on" : "off (explore left out)"}`,
);
if (suites.some((s) => s.needsWeb)) for (const tree of [base, head]) buildWeb(tree);

const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const results = join(root, "bench", "results");
const logDir = join(results, `compare-${stamp}`);
mkdirSync(logDir, { recursive: true });
const startLoad = loadavg()[0]!;

const runs = new Map<string, { base: SuiteRun[]; head: SuiteRun[] }>(
  suites.map((s) => [s.name, { base: [], head: [] }]),
);
for (let round = 0; round < rounds; round++) {
  for (const suite of suites) {
    for (const tree of round % 2 === 0 ? [base, head] : [head, base]) {
      const started = performance.now();
      const run = await runSuite(tree, suite, { seconds, neo4j: values.neo4j, logDir, round: round + 1 });
      runs.get(suite.name)![tree.key as "base" | "head"].push(run);
      const took = `${((performance.now() - started) / 1000).toFixed(0)} s`;
      const errors = "figures" in run && run.errors?.length ? `, ERRORS: ${run.errors.join(" | ")}` : "";
      const what =
        "figures" in run
          ? `${run.figures.length} figures${errors}`
          : "missing" in run
            ? run.missing
            : `FAILED ${run.failed}`;
      console.log(
        `  round ${round + 1}/${rounds}  ${suite.name.padEnd(16)} ${tree.label.padEnd(14)} ${what} (${took})`,
      );
    }
  }
}

const rows: Row[] = [];
const notes: string[] = [];
for (const suite of suites) {
  const { base: b, head: h } = runs.get(suite.name)!;
  const figures = (list: SuiteRun[]) => list.flatMap((r) => ("figures" in r ? [r.figures] : [])) as Figure[][];
  for (const [tree, list] of [
    [base, b],
    [head, h],
  ] as const) {
    const missing = list.find((r) => "missing" in r);
    if (missing && "missing" in missing)
      notes.push(`${suite.name}: only in ${tree === base ? head.label : base.label} (${missing.missing})`);
    for (const [i, r] of list.entries()) {
      if ("failed" in r) notes.push(`${suite.name} on ${tree.label} failed in a round: ${r.failed}`);
      for (const e of "figures" in r ? (r.errors ?? []) : [])
        notes.push(`${suite.name} on ${tree.label}, round ${i + 1}, answered errors: ${e}`);
    }
  }
  const suiteRows = compareSuite(suite.name, figures(b), figures(h));
  rows.push(...suiteRows);
  console.log(`\n== ${suite.name}: ${labels.head} against ${labels.base}, median of the rounds (min–max)`);
  console.log(consoleTable(suiteRows, labels));
}
const flagged = rows.filter((r) => r.verdict === "slower" || r.verdict === "faster");
const compared = rows.filter((r) => r.base.length && r.head.length);
const endLoad = loadavg()[0]!;
console.log("");
for (const note of notes) console.log(`note: ${note}`);
console.log(
  `${flagged.length} of ${compared.length} figures measured in both trees outside their noise band (${rows.filter((r) => r.verdict === "slower").length} slower, ` +
    `${rows.filter((r) => r.verdict === "faster").length} faster); load average ${startLoad.toFixed(1)} at the start, ${endLoad.toFixed(1)} at the end`,
);
const md = [
  `\`pnpm bench:compare ${positionals[0] ?? ""}\`: ${labels.head} (${headCommit}) against ${labels.base}, ${rounds} alternating rounds, load runs ${seconds} s, load average ${startLoad.toFixed(1)}–${endLoad.toFixed(1)}.`,
  "",
  markdownTable(rows, labels),
  "",
  ...notes.map((n) => `- ${n}`),
].join("\n");
writeFileSync(join(results, `compare-${stamp}.md`), `${md}\n`);
writeFileSync(
  join(results, `compare-${stamp}.json`),
  `${JSON.stringify({ labels, rounds, seconds, rows, notes }, null, 2)}\n`,
);
console.log(`results: ${join(results, `compare-${stamp}.md`)} (each run's output under ${logDir})`);
process.exit(0);
