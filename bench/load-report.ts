import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import type { OperationFigures, RunFigures } from "./load-driver.ts";
import type { ProcessFigures } from "./load-probe.ts";

/** Everything measured at one concurrency level of one shape. */
export type LevelResult = {
  shape: "standalone" | "split";
  description: string;
  connections: number;
  seconds: number;
  /** The three reads alone: bare server, then through the gateway, same targets and connections. */
  floorReads: RunFigures;
  gatewayReads: RunFigures;
  /** CPU time of the serving processes per read: the floor's process, and control + tenant (+ mcp) for the gateway. */
  readCpuMs: { floor: number; gateway: number };
  mixed: RunFigures;
  /** The product's processes during the mixed run, and the floor's during its own run. */
  processes: ProcessFigures[];
  floorProcess: ProcessFigures;
  loadAverage: number;
};

/** The gateway's share of the bare server's throughput on the same reads. */
export const readShare = (level: LevelResult) => level.gatewayReads.all.perSecond / level.floorReads.all.perSecond;

/** Every failure of a run, one line each with its count (what the brief calls "every non-2xx explained"). */
export function failureLines(run: RunFigures): string[] {
  const lines = Object.entries(run.all.failures).map(([what, n]) => `${n} x ${what}`);
  for (const [what, n] of Object.entries(run.unanswered)) lines.push(`${n} x ${what}`);
  return lines;
}

export const errorCount = (run: RunFigures) =>
  run.all.errors + Object.values(run.unanswered).reduce((a, b) => a + b, 0);

// NaN: a figure the process did not publish (heap and event-loop delay of a process read from /proc, load-probe.ts).
const ms = (v: number) => (Number.isNaN(v) ? "n/a" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const pad = (s: string, n: number) => s.padStart(n);

function operationLine(op: OperationFigures, floor?: OperationFigures): string {
  const vsFloor = floor
    ? `${pad(ms(floor.p50), 6)} ${pad(ms(floor.p99), 6)}  ${(op.p50 / floor.p50).toFixed(1)}x/${(op.p99 / floor.p99).toFixed(1)}x`
    : "";
  return `  ${op.name.padEnd(30)} ${pad(op.perSecond.toFixed(0), 6)} ${pad(ms(op.p50), 7)} ${pad(ms(op.p95), 7)} ${pad(ms(op.p99), 7)} ${pad(ms(op.max), 7)} ${pad(String(op.errors), 6)}   ${vsFloor}`;
}

/** The level's tables on the console. */
export function printLevel(level: LevelResult) {
  const floorOf = (name: string) => level.floorReads.operations.find((o) => o.name === name);
  console.log(
    `  reads alone (list, detail, relationships, equal shares): floor ${level.floorReads.all.perSecond.toFixed(0)} req/s, ` +
      `through the gateway ${level.gatewayReads.all.perSecond.toFixed(0)} req/s = ${(100 * readShare(level)).toFixed(0)}% of the floor; ` +
      `p99 ${ms(level.gatewayReads.all.p99)} ms vs ${ms(level.floorReads.all.p99)} ms; ` +
      `CPU per read ${ms(level.readCpuMs.gateway)} ms vs ${ms(level.readCpuMs.floor)} ms`,
  );
  console.log(
    `  mixed workload ${"".padEnd(15)} ${pad("req/s", 6)} ${pad("p50", 7)} ${pad("p95", 7)} ${pad("p99", 7)} ${pad("max", 7)} ${pad("errors", 6)}   floor p50 p99  ratio p50/p99 (ms)`,
  );
  for (const op of level.mixed.operations) console.log(operationLine(op, floorOf(op.name)));
  console.log(operationLine(level.mixed.all));
  for (const line of [
    ...failureLines(level.floorReads),
    ...failureLines(level.gatewayReads),
    ...failureLines(level.mixed),
  ]) {
    console.log(`    failed: ${line}`);
  }
  console.log(
    `  process${"".padEnd(9)} CPU s   CPU %   RSS early (at s)  RSS last  RSS change  heap in use, lowest  heap reserved  event-loop p99  max (ms)   [load average ${level.loadAverage.toFixed(1)}]`,
  );
  for (const p of [...level.processes, level.floorProcess]) {
    console.log(
      `  ${p.name.padEnd(15)} ${pad(p.cpuSeconds.toFixed(1), 6)} ${pad(p.cpuPercent.toFixed(0), 6)}   ${pad(p.rssEarlyMb.toFixed(0), 6)} MB (${p.rssEarlyAt.toFixed(0)})  ${pad(p.rssLastMb.toFixed(0), 6)} MB  ${pad(rssChange(p), 8)}  ${pad(heapChange(p.heapLowEarlyMb, p.heapLowLastMb), 19)}  ${pad(heapChange(p.heapTotalEarlyMb, p.heapTotalLastMb), 13)}  ${pad(ms(p.eventLoopP99Ms), 12)}  ${pad(ms(p.eventLoopMaxMs), 8)}`,
    );
  }
}

/** "early → last MB" of a heap figure. */
const heapChange = (early: number, last: number) =>
  Number.isNaN(early) ? "n/a" : `${early.toFixed(0)} → ${last.toFixed(0)} MB`;

export const rssChange = (p: ProcessFigures) =>
  `${p.rssLastMb >= p.rssEarlyMb ? "+" : ""}${((100 * (p.rssLastMb - p.rssEarlyMb)) / p.rssEarlyMb).toFixed(1)}%`;

/** One line per shape and level: the mix as a whole, the reads beside the floor, the processes at their worst. */
export function summaryMarkdown(levels: LevelResult[]): string {
  const out = [
    "| Shape | Conn. | Mixed req/s | Mixed p50 / p95 / p99 ms | Errors | Reads: gateway vs floor req/s | Reads p99: gateway vs floor ms | CPU ms per read: gateway vs floor | Worst event-loop p99 ms | Largest RSS change |",
    "| --- | ---: | ---: | --- | ---: | --- | --- | --- | ---: | ---: |",
  ];
  for (const l of levels) {
    const errors = errorCount(l.mixed) + errorCount(l.gatewayReads) + errorCount(l.floorReads);
    const worstLoop = Math.max(...l.processes.map((p) => p.eventLoopP99Ms));
    const change = (p: ProcessFigures) => Math.abs(p.rssLastMb - p.rssEarlyMb) / p.rssEarlyMb;
    const widest = l.processes.reduce((a, b) => (change(b) > change(a) ? b : a));
    out.push(
      `| ${l.shape} | ${l.connections} | ${l.mixed.all.perSecond.toFixed(0)} | ${ms(l.mixed.all.p50)} / ${ms(l.mixed.all.p95)} / ${ms(l.mixed.all.p99)} | ${errors} | ${l.gatewayReads.all.perSecond.toFixed(0)} vs ${l.floorReads.all.perSecond.toFixed(0)} (${(100 * readShare(l)).toFixed(0)}%) | ${ms(l.gatewayReads.all.p99)} vs ${ms(l.floorReads.all.p99)} | ${ms(l.readCpuMs.gateway)} vs ${ms(l.readCpuMs.floor)} | ${ms(worstLoop)} | ${rssChange(widest)} (${widest.name}) |`,
    );
  }
  return out.join("\n");
}

/** The markdown the README's performance section carries: one table of operations, one of processes. */
export function markdown(levels: LevelResult[], targets: { line: string; ok: boolean }[]): string {
  const out: string[] = [summaryMarkdown(levels), ""];
  out.push("| Shape | Conn. | Operation | req/s | p50 ms | p95 ms | p99 ms | max ms | Errors | Floor p50 / p99 ms |");
  out.push("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const level of levels) {
    const floorOf = (name: string) => level.floorReads.operations.find((o) => o.name === name);
    for (const op of [...level.mixed.operations, level.mixed.all]) {
      const floor = floorOf(op.name);
      out.push(
        `| ${level.shape} | ${level.connections} | ${op.name === "all operations" ? "**all (mixed)**" : op.name} | ${op.perSecond.toFixed(0)} | ${ms(op.p50)} | ${ms(op.p95)} | ${ms(op.p99)} | ${ms(op.max)} | ${op.errors} | ${floor ? `${ms(floor.p50)} / ${ms(floor.p99)}` : ""} |`,
      );
    }
    out.push(
      `| ${level.shape} | ${level.connections} | *reads alone: gateway vs floor* | ${level.gatewayReads.all.perSecond.toFixed(0)} vs ${level.floorReads.all.perSecond.toFixed(0)} (${(100 * readShare(level)).toFixed(0)}%) | ${ms(level.gatewayReads.all.p50)} | ${ms(level.gatewayReads.all.p95)} | ${ms(level.gatewayReads.all.p99)} | ${ms(level.gatewayReads.all.max)} | ${errorCount(level.gatewayReads)} | ${ms(level.floorReads.all.p50)} / ${ms(level.floorReads.all.p99)} |`,
    );
    out.push(
      `| ${level.shape} | ${level.connections} | *CPU ms per read, all processes: gateway vs floor* | ${ms(level.readCpuMs.gateway)} vs ${ms(level.readCpuMs.floor)} | | | | | | |`,
    );
  }
  out.push("");
  out.push(
    "| Shape | Conn. | Process | CPU % of a core | RSS early → last (MB) | Heap in use, lowest, early → last | Heap reserved early → last | Event-loop delay p99 / max ms |",
  );
  out.push("| --- | ---: | --- | ---: | --- | --- | --- | --- |");
  for (const level of levels) {
    for (const p of [...level.processes, level.floorProcess]) {
      out.push(
        `| ${level.shape} | ${level.connections} | ${p.name} | ${p.cpuPercent.toFixed(0)} | ${p.rssEarlyMb.toFixed(0)} (${p.rssEarlyAt.toFixed(0)} s) → ${p.rssLastMb.toFixed(0)} (${rssChange(p)}) | ${heapChange(p.heapLowEarlyMb, p.heapLowLastMb)} | ${heapChange(p.heapTotalEarlyMb, p.heapTotalLastMb)} | ${ms(p.eventLoopP99Ms)} / ${ms(p.eventLoopMaxMs)} |`,
      );
    }
  }
  out.push("");
  for (const t of targets) out.push(`- ${t.ok ? "met" : "**missed**"}: ${t.line}`);
  return out.join("\n");
}

/** Raw figures and the markdown under bench/results/ (ignored by git), named by the run's time. */
export function writeResults(levels: LevelResult[], targets: { line: string; ok: boolean }[]) {
  const dir = new URL("./results/", import.meta.url);
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const meta = { at: new Date().toISOString(), loadAverage: loadavg(), levels, targets };
  writeFileSync(new URL(`load-${stamp}.json`, dir), `${JSON.stringify(meta, null, 2)}\n`);
  writeFileSync(new URL(`load-${stamp}.md`, dir), `${markdown(levels, targets)}\n`);
  return new URL(`load-${stamp}.md`, dir).pathname;
}
