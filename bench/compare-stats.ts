/**
 * The arithmetic of `pnpm bench:compare`, apart from any process: reading a suite's figures (its JSON lines, its
 * printed lines, a load run's results file), and setting the rounds of two trees side by side with the ratio of
 * their medians and a noise band taken from the spread of each tree's own rounds.
 */

/** One figure of one suite run: lower is better for times and CPU, higher for throughput. */
export type Figure = { name: string; value: number; unit: string; better: "lower" | "higher" };

/** `(+0.45 ms)` and the like inside a figure's name: a difference measured in that run, not part of its identity. */
const MEASURED_IN_NAME = /\s*\([+-]?\d+(?:\.\d+)? ms\)/g;

/** A name as the same figure has in every run: measured numbers dropped, a repeated name numbered (#2, #3). */
export function stableNames(figures: Figure[]): Figure[] {
  const seen = new Map<string, number>();
  return figures.map((f) => {
    const base = f.name.replace(MEASURED_IN_NAME, "").trim();
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { ...f, name: n === 1 ? base : `${base} #${n}` };
  });
}

/**
 * A figure measured beside a floor in the same process also gives "<name> ÷ floor": the two were interleaved round
 * by round, so load from other work on the machine cancels out of their ratio far more than out of either time.
 */
function withFloorRatio(name: string, value: number, floor: number | null, unit = "ms"): Figure[] {
  const figure: Figure = { name, value, unit, better: "lower" };
  if (!floor) return [figure];
  return [figure, { name: `${name} ÷ floor`, value: value / floor, unit: "x", better: "lower" }];
}

/** The JSON lines `bench/lib.ts` writes to BENCH_RESULTS ({name, value, floor, unit} each). */
export function parseJsonLines(text: string): Figure[] {
  const out: Figure[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const f = JSON.parse(line) as { name: string; value: number; floor?: number | null; unit?: string };
    out.push(...withFloorRatio(f.name.replace(MEASURED_IN_NAME, "").trim(), f.value, f.floor ?? null, f.unit));
  }
  return stableNames(out);
}

/**
 * The figures of `pnpm bench`'s printed lines, for a tree whose bench writes no JSON: `PASS  <name>  <value> ms
 * floor ...` (MISS alike). Lines of other kinds (counts, sizes, section titles) carry no time and are left out.
 */
export function parseReportLines(text: string): Figure[] {
  const out: Figure[] = [];
  for (const line of text.split("\n")) {
    const m = /^(?:PASS|MISS) {2}(.+?)\s+(\d+(?:\.\d+)?) ms {3}floor\s+(n\/a|\d+(?:\.\d+)?) ms/.exec(line);
    if (!m) continue;
    const floor = m[3] === "n/a" ? null : Number(m[3]);
    out.push(...withFloorRatio(m[1]!.replace(MEASURED_IN_NAME, "").trim(), Number(m[2]), floor));
  }
  return stableNames(out);
}

/** The parts of a `bench:load` results file (bench/results/load-*.json) the comparison reads. */
type RunSummary = {
  all: { perSecond: number; p50: number; p99: number; errors?: number; failures?: Record<string, number> };
};
export type LoadResults = {
  levels: {
    shape: string;
    connections: number;
    floorReads: RunSummary;
    gatewayReads: RunSummary;
    mixed: RunSummary;
    readCpuMs?: { floor: number; gateway: number };
  }[];
};

/** A load run's headline figures per level: the mix, the reads through the gateway, their CPU, the floor's reads. */
export function loadFigures(results: LoadResults): Figure[] {
  const out: Figure[] = [];
  for (const l of results.levels) {
    const at = `${l.shape} ${l.connections} conn.`;
    const rate = (name: string, value: number) =>
      out.push({ name: `${at}: ${name}`, value, unit: "req/s", better: "higher" });
    const time = (name: string, value: number) =>
      out.push({ name: `${at}: ${name}`, value, unit: "ms", better: "lower" });
    rate("mixed, requests/s", l.mixed.all.perSecond);
    time("mixed, p50", l.mixed.all.p50);
    time("mixed, p99", l.mixed.all.p99);
    rate("reads through the gateway, requests/s", l.gatewayReads.all.perSecond);
    time("reads through the gateway, p99", l.gatewayReads.all.p99);
    if (l.readCpuMs) time("CPU per read, all serving processes", l.readCpuMs.gateway);
    rate("floor reads (bare server, same code in both trees), requests/s", l.floorReads.all.perSecond);
  }
  return out;
}

/**
 * The requests a load run answered with an error (a 5xx, a refused connection), each kind with its count: a figure
 * from a run with errors is not comparable, and an error is a defect whatever the timings say.
 */
export function loadErrors(results: LoadResults): string[] {
  const out: string[] = [];
  for (const l of results.levels) {
    for (const [run, summary] of [
      ["mixed", l.mixed],
      ["reads", l.gatewayReads],
    ] as const) {
      if (!summary.all.errors) continue;
      const kinds = Object.entries(summary.all.failures ?? {}).map(([what, n]) => `${n} x ${what}`);
      out.push(`${l.shape} ${l.connections} conn. ${run}: ${summary.all.errors} errors (${kinds.join("; ")})`);
    }
  }
  return out;
}

/** What one suite gave in one round on one tree: its figures (and a load run's errors), or why it gave none. */
export type SuiteRun = { figures: Figure[]; errors?: string[] } | { missing: string } | { failed: string };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Max minus min over the median: how far apart one tree's rounds of the same figure landed. */
export const relativeRange = (xs: number[]) =>
  xs.length < 2 ? Number.NaN : (Math.max(...xs) - Math.min(...xs)) / median(xs);

export type Verdict = "slower" | "faster" | "within noise" | "no band" | "only in base" | "only in head";

/** One figure of both trees: each tree's rounds, the ratio head/base of the medians, the band, the verdict. */
export type Row = {
  suite: string;
  name: string;
  unit: string;
  better: "lower" | "higher";
  base: number[];
  head: number[];
  ratio: number;
  /** ± this fraction around 1: the wider relative range of the two trees' rounds. */
  band: number;
  verdict: Verdict;
};

/**
 * Sets the two trees' rounds of one suite side by side. The ratio is head's median over base's; the noise band is
 * 1 ± the wider of the two trees' relative ranges (the spread of repeated rounds of the same code in this session).
 * A ratio outside the band is flagged slower or faster by the figure's direction; with fewer than two rounds a side
 * there is no band and nothing is flagged.
 */
export function compareSuite(suite: string, base: Figure[][], head: Figure[][]): Row[] {
  const byName = (rounds: Figure[][]) => {
    const map = new Map<string, { figure: Figure; values: number[] }>();
    for (const round of rounds) {
      for (const f of round) {
        const entry = map.get(f.name) ?? { figure: f, values: [] };
        entry.values.push(f.value);
        map.set(f.name, entry);
      }
    }
    return map;
  };
  const b = byName(base);
  const h = byName(head);
  const names = [...h.keys(), ...[...b.keys()].filter((n) => !h.has(n))];
  return names.map((name) => {
    const figure = (h.get(name) ?? b.get(name))!.figure;
    const baseValues = b.get(name)?.values ?? [];
    const headValues = h.get(name)?.values ?? [];
    const row = { suite, name, unit: figure.unit, better: figure.better, base: baseValues, head: headValues };
    if (!baseValues.length) return { ...row, ratio: Number.NaN, band: Number.NaN, verdict: "only in head" as const };
    if (!headValues.length) return { ...row, ratio: Number.NaN, band: Number.NaN, verdict: "only in base" as const };
    const ratio = median(headValues) / median(baseValues);
    const band = Math.max(relativeRange(baseValues), relativeRange(headValues));
    return { ...row, ratio, band, verdict: judge(ratio, band, figure.better) };
  });
}

export function judge(ratio: number, band: number, better: "lower" | "higher"): Verdict {
  if (Number.isNaN(band)) return "no band";
  if (ratio >= 1 - band && ratio <= 1 + band) return "within noise";
  const higher = ratio > 1 + band;
  return higher === (better === "lower") ? "slower" : "faster";
}

export { median };
