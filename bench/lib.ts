import { appendFileSync } from "node:fs";

/**
 * Small timing helpers for `pnpm bench`: every figure is printed beside a floor measured in the same run. The bench
 * files `pnpm bench:compare` copies into an older tree keep helpers like these under bench/ instead of importing
 * them from a package export that tree may not have yet.
 */

/**
 * The value, or a failure naming what was missing (where an indexed lookup must have found something), as
 * @ams/shared/testing's `must`, which a tree before 25 November does not export.
 */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

export type Stats = { median: number; p99: number; mean: number; n: number };

export async function measure(
  fn: () => Promise<unknown> | unknown,
  opts: { iterations?: number; warmup?: number } = {},
): Promise<Stats> {
  const iterations = opts.iterations ?? 200;
  for (let i = 0; i < (opts.warmup ?? Math.min(20, iterations)); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return statsOf(times);
}

/** Median, p99, mean and count of some timings (ms). */
export function statsOf(timings: readonly number[]): Stats {
  const times = [...timings].sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { median: at(0.5), p99: at(0.99), mean: times.reduce((a, b) => a + b, 0) / times.length, n: times.length };
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2)).padStart(7);

export type Verdict = { name: string; ok: boolean };
const verdicts: Verdict[] = [];

/** One line: the figure, its floor, the ratio, and the target with a pass/miss mark. */
export function report(name: string, value: number, floor: number | null, target: string, ok: boolean) {
  verdicts.push({ name, ok });
  record({ name, value, floor, unit: "ms" });
  const ratio = floor ? `${(value / floor).toFixed(2)}x floor` : "";
  console.log(
    `${ok ? "PASS" : "MISS"}  ${name.padEnd(58)} ${fmt(value)} ms   floor ${floor === null ? "    n/a" : fmt(floor)} ms  ${ratio.padEnd(13)} target: ${target}`,
  );
}

/** A target that is not a time (a count, a size): its line as given, counted in the summary like the others. */
export function verdict(name: string, line: string, ok: boolean) {
  verdicts.push({ name, ok });
  console.log(`${ok ? "PASS" : "MISS"}  ${line}`);
}

/**
 * A figure that is not a time (a size in MB), lower being better, written to BENCH_RESULTS only: its verdict line
 * prints it. `pnpm bench:compare` sets it beside the other tree's like a time.
 */
export function figure(name: string, value: number, unit: "MB") {
  record({ name, value, floor: null, unit });
}

/**
 * BENCH_RESULTS=<file>: every figure also goes there as one JSON line ({name, value, floor, unit}), which
 * `pnpm bench:compare` reads (it falls back to the printed lines for a tree whose bench predates this).
 */
function record(figure: { name: string; value: number; floor: number | null; unit: "ms" | "MB" }) {
  const file = process.env.BENCH_RESULTS;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

export function section(title: string) {
  console.log(`\n== ${title}`);
}

export function summary(): number {
  const missed = verdicts.filter((v) => !v.ok);
  console.log(
    `\n${verdicts.length - missed.length} of ${verdicts.length} targets met${missed.length ? `; missed: ${missed.map((m) => m.name).join(", ")}` : ""}`,
  );
  return missed.length;
}

/** Like measure(), for several operations run in turn in every round (the order rotates), one Stats each. */
export async function interleaved(
  fns: (() => Promise<unknown>)[],
  opts: { iterations: number; warmup: number },
): Promise<Stats[]> {
  const times = fns.map(() => [] as number[]);
  for (let round = 0; round < opts.warmup + opts.iterations; round++) {
    for (let k = 0; k < fns.length; k++) {
      const which = (round + k) % fns.length;
      const t = performance.now();
      await fns[which]!();
      if (round >= opts.warmup) times[which]!.push(performance.now() - t);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    const at = (q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))]!;
    return { median: at(0.5), p99: at(0.99), mean: list.reduce((a, b) => a + b, 0) / list.length, n: list.length };
  });
}
