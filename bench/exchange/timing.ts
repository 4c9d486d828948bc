import os from "node:os";
import type { Stats } from "../lib.ts";

/** Interleaved rounds of a figure and its floor, and one timed run. */
/**
 * Runs the functions round-robin (starting with a different one each round), so they share the machine's load.
 * A function may return its own duration in ms (a child process's figure, or a step without its cleanup).
 */
export async function interleave(
  fns: Record<string, () => Promise<number | unknown>>,
  opts: { rounds: number; warmup?: number },
): Promise<Record<string, Stats>> {
  const names = Object.keys(fns);
  const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const warmup = opts.warmup ?? 0;
  for (let r = 0; r < warmup + opts.rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      const t = performance.now();
      const own = await fns[name]!();
      const ms = typeof own === "number" ? own : performance.now() - t;
      if (r >= warmup) times[name]!.push(ms);
    }
  }
  return Object.fromEntries(
    names.map((n) => {
      const sorted = times[n]!.sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
      return [
        n,
        { median: at(0.5), p99: at(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length, n: sorted.length },
      ];
    }),
  );
}

/** The duration of `fn` alone, then `after` (cleanup, untimed). */
export async function timed(fn: () => Promise<unknown>, after?: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  await after?.();
  return ms;
}

export const load = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")}`;
