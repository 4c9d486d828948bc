import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { consoleTable } from "../../bench/compare-report.ts";
import {
  compareSuite,
  type Figure,
  loadErrors,
  loadFigures,
  parseJsonLines,
  parseReportLines,
  relativeRange,
} from "../../bench/compare-stats.ts";
import { harnessParent } from "../../bench/compare-tree.ts";

/**
 * `pnpm bench:compare` on made-up rounds: a wrong parse would compare different figures, a wrong band would flag
 * noise as a regression (or let a regression through), so each part is checked on numbers worked out by hand.
 */

const printed = `
== Gateway hop, standalone: GET /api/elements/:id (565 elements), through control vs straight to tenant
PASS  standalone: straight to tenant, median                        0.64 ms   floor     n/a ms                target: (the floor)
PASS  standalone: through control, session cookie, median (+0.44 ms)     1.07 ms   floor    0.64 ms  1.68x floor   target: <= 1 ms added
MISS  split: through control, API token, median (+1.02 ms)         112 ms   floor    0.87 ms  2.02x floor   target: <= 1 ms added
PASS  split: straight to tenant, median                             0.86 ms   floor     n/a ms                target: (the floor)
PASS  split: straight to tenant, median                             0.88 ms   floor     n/a ms                target: (the floor)
PASS  the modeler's JavaScript 68.7 KB gzipped (target <= 200 KB)

8 of 8 targets met`;

test("printed report lines: every timed line's value, and its ratio to a floor when it has one; measured differences dropped from names, repeats numbered", () => {
  expect(parseReportLines(printed)).toEqual([
    { name: "standalone: straight to tenant, median", value: 0.64, unit: "ms", better: "lower" },
    { name: "standalone: through control, session cookie, median", value: 1.07, unit: "ms", better: "lower" },
    {
      name: "standalone: through control, session cookie, median ÷ floor",
      value: 1.07 / 0.64,
      unit: "x",
      better: "lower",
    },
    { name: "split: through control, API token, median", value: 112, unit: "ms", better: "lower" },
    { name: "split: through control, API token, median ÷ floor", value: 112 / 0.87, unit: "x", better: "lower" },
    { name: "split: straight to tenant, median", value: 0.86, unit: "ms", better: "lower" },
    { name: "split: straight to tenant, median #2", value: 0.88, unit: "ms", better: "lower" },
  ]);
});

test("the JSON lines of a newer bench name the figures as the printed lines of an older one do", () => {
  const jsonl = [
    { name: "standalone: straight to tenant, median", value: 0.6386, floor: null, unit: "ms" },
    {
      name: "standalone: through control, session cookie, median (+0.44 ms)",
      value: 1.0739,
      floor: 0.6386,
      unit: "ms",
    },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n");
  const names = (figures: Figure[]) => figures.map((f) => f.name);
  expect(names(parseJsonLines(`${jsonl}\n`))).toEqual(names(parseReportLines(printed)).slice(0, 3));
  expect(parseJsonLines(jsonl)[1]!.value).toBe(1.0739);
  expect(parseJsonLines(jsonl)[2]!.value).toBeCloseTo(1.0739 / 0.6386, 10);
});

test("a load run's errors are named per run with each kind's count; a run without errors names none", () => {
  const run = (errors: number, failures?: Record<string, number>) => ({
    all: { perSecond: 1, p50: 1, p99: 1, errors, ...(failures ? { failures } : {}) },
  });
  const level = { shape: "split", connections: 32, floorReads: run(0) };
  expect(loadErrors({ levels: [{ ...level, gatewayReads: run(0), mixed: run(0) }] })).toEqual([]);
  expect(
    loadErrors({
      levels: [
        {
          ...level,
          gatewayReads: run(2, { "relationship list: 500": 2 }),
          mixed: run(8, { "relationship list: 500": 7, "element detail: 500": 1 }),
        },
      ],
    }),
  ).toEqual([
    "split 32 conn. mixed: 8 errors (7 x relationship list: 500; 1 x element detail: 500)",
    "split 32 conn. reads: 2 errors (2 x relationship list: 500)",
  ]);
});

test("a load run's figures: throughput higher-is-better, latencies and CPU lower-is-better, per level", () => {
  const run = (perSecond: number, p50: number, p99: number) => ({ all: { perSecond, p50, p99 } });
  const figures = loadFigures({
    levels: [
      {
        shape: "standalone",
        connections: 8,
        floorReads: run(410, 9, 48.5),
        gatewayReads: run(204, 20, 99.4),
        mixed: run(230, 27.7, 175),
        readCpuMs: { floor: 2.3, gateway: 4.4 },
      },
    ],
  });
  expect(figures.map((f) => [f.name, f.value, f.better])).toEqual([
    ["standalone 8 conn.: mixed, requests/s", 230, "higher"],
    ["standalone 8 conn.: mixed, p50", 27.7, "lower"],
    ["standalone 8 conn.: mixed, p99", 175, "lower"],
    ["standalone 8 conn.: reads through the gateway, requests/s", 204, "higher"],
    ["standalone 8 conn.: reads through the gateway, p99", 99.4, "lower"],
    ["standalone 8 conn.: CPU per read, all serving processes", 4.4, "lower"],
    ["standalone 8 conn.: floor reads (bare server, same code in both trees), requests/s", 410, "higher"],
  ]);
});

test("relative range: max minus min over the median of the rounds; no range from one round", () => {
  expect(relativeRange([10, 11, 12])).toBeCloseTo(2 / 11, 10);
  expect(relativeRange([4, 5])).toBeCloseTo(1 / 4.5, 10);
  expect(relativeRange([7])).toBeNaN();
});

const ms = (name: string, value: number): Figure => ({ name, value, unit: "ms", better: "lower" });
const rate = (name: string, value: number): Figure => ({ name, value, unit: "req/s", better: "higher" });

test("ratio of medians against a band from each tree's own spread; outside it flagged by the figure's direction", () => {
  // base rounds 1.00, 1.04, 0.98 (median 1.00, range 6%); head 1.20, 1.18, 1.23 (median 1.20, range ~4.2%).
  const base = [
    [ms("lookup", 1.0), ms("steady", 5.0), rate("throughput", 200), ms("gone", 3)],
    [ms("lookup", 1.04), ms("steady", 5.2), rate("throughput", 210), ms("gone", 3.1)],
    [ms("lookup", 0.98), ms("steady", 4.9), rate("throughput", 205), ms("gone", 2.9)],
  ];
  const head = [
    [ms("lookup", 1.2), ms("steady", 5.1), rate("throughput", 250), ms("new", 9)],
    [ms("lookup", 1.18), ms("steady", 5.0), rate("throughput", 245), ms("new", 9.5)],
    [ms("lookup", 1.23), ms("steady", 5.3), rate("throughput", 240), ms("new", 8.8)],
  ];
  const rows = compareSuite("made-up", base, head);
  const row = (name: string) => rows.find((r) => r.name === name)!;

  expect(row("lookup").ratio).toBeCloseTo(1.2, 10);
  expect(row("lookup").band).toBeCloseTo(0.06, 10);
  expect(row("lookup").verdict).toBe("slower");

  // steady: medians 5.1 vs 5.0 = 1.02x, base range 0.3/5.0 = 6%: within the band.
  expect(row("steady").ratio).toBeCloseTo(1.02, 10);
  expect(row("steady").verdict).toBe("within noise");

  // throughput 245 vs 205 = 1.195x, band max(10/205, 10/245) ≈ 4.9%: higher is better, so faster.
  expect(row("throughput").ratio).toBeCloseTo(245 / 205, 10);
  expect(row("throughput").verdict).toBe("faster");

  expect(row("new")).toMatchObject({ verdict: "only in head", base: [], head: [9, 9.5, 8.8] });
  expect(row("gone")).toMatchObject({ verdict: "only in base", head: [] });
});

test("a throughput that fell and a time that fell below the band read the other way round", () => {
  const rows = compareSuite(
    "made-up",
    [
      [rate("rps", 100), ms("t", 10)],
      [rate("rps", 102), ms("t", 10.2)],
    ],
    [
      [rate("rps", 80), ms("t", 8)],
      [rate("rps", 81), ms("t", 8.1)],
    ],
  );
  expect(rows.map((r) => r.verdict)).toEqual(["slower", "faster"]);
});

test("one round a side gives no band and flags nothing", () => {
  const [row] = compareSuite("made-up", [[ms("t", 1)]], [[ms("t", 3)]]);
  expect(row).toMatchObject({ ratio: 3, verdict: "no band" });
});

test("the printed table shows both medians with their range, the ratio, the band and the flag", () => {
  const rows = compareSuite(
    "made-up",
    [[ms("lookup", 1.0)], [ms("lookup", 1.04)], [ms("lookup", 0.98)]],
    [[ms("lookup", 1.2)], [ms("lookup", 1.18)], [ms("lookup", 1.23)]],
  );
  const table = consoleTable(rows, { base: "39285b3", head: "this tree" });
  expect(table).toContain("1.00 ms (0.98–1.04)");
  expect(table).toContain("1.20 ms (1.18–1.23)");
  expect(table).toContain("1.20x");
  expect(table).toContain("±6.0%");
  expect(table).toContain("SLOWER (outside the band)");
});

test("in the ref's tree, only a third-party package imported by a bench file is looked up again in this checkout", () => {
  const from = "file:///trees/ref/bench/load-driver.ts";
  expect(harnessParent("autocannon", from, "/trees/ref", "/work/head")).toBe("file:///work/head/bench/load-driver.ts");
  expect(harnessParent("@scope/tool", from, "/trees/ref/", "/work/head")).toBe(
    "file:///work/head/bench/load-driver.ts",
  );
  // The product's own packages, relative paths, built-ins and URLs stay the ref's, and so do imports from its code.
  for (const specifier of ["@ams/shared/http", "./lib.ts", "../services/x.ts", "node:fs", "file:///x.ts", "#x"])
    expect(harnessParent(specifier, from, "/trees/ref", "/work/head")).toBeUndefined();
  expect(
    harnessParent("autocannon", "file:///trees/ref/packages/model/src/a.ts", "/trees/ref", "/work/head"),
  ).toBeUndefined();
  expect(harnessParent("autocannon", "file:///trees/ref/benchmarks/a.ts", "/trees/ref", "/work/head")).toBeUndefined();
  expect(harnessParent("autocannon", undefined, "/trees/ref", "/work/head")).toBeUndefined();
});

test("a suite run in the ref's tree with the preload finds a harness package only this checkout installs, never a product package", () => {
  const work = mkdtempSync(join(tmpdir(), "ams-compare-harness-"));
  try {
    const ref = join(work, "ref");
    const head = join(work, "head");
    mkdirSync(join(ref, "bench"), { recursive: true });
    writeFileSync(join(ref, "package.json"), JSON.stringify({ type: "module" }));
    const bench = fileURLToPath(new URL("../../bench/", import.meta.url));
    for (const file of ["compare-harness.ts", "compare-tree.ts", "compare-stats.ts"])
      cpSync(join(bench, file), join(ref, "bench", file));
    writeFileSync(
      join(ref, "bench", "probe.ts"),
      [
        'const tool = await import("harness-only").then((m) => m.default, (e) => e.code);',
        'const product = await import("@ams/only-in-head").then((m) => m.default, (e) => e.code);',
        "console.log(JSON.stringify({ tool, product }));",
      ].join("\n"),
    );
    for (const name of ["harness-only", "@ams/only-in-head"]) {
      const dir = join(head, "node_modules", name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name, type: "module", exports: "./index.js" }));
      writeFileSync(join(dir, "index.js"), `export default "${name} from this checkout";`);
    }
    const run = (harness?: string) => {
      const out = spawnSync(
        process.execPath,
        ["--import", pathToFileURL(join(ref, "bench", "compare-harness.ts")).href, join(ref, "bench", "probe.ts")],
        { cwd: ref, encoding: "utf8", env: { ...process.env, BENCH_HARNESS: harness ?? "" } },
      );
      expect(out.status, out.stderr).toBe(0);
      return JSON.parse(out.stdout) as { tool: string; product: string };
    };
    expect(run(head)).toEqual({ tool: "harness-only from this checkout", product: "ERR_MODULE_NOT_FOUND" });
    expect(run()).toEqual({ tool: "ERR_MODULE_NOT_FOUND", product: "ERR_MODULE_NOT_FOUND" });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
