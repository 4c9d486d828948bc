import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { section, summary, verdict } from "./lib.ts";
import { type Operation, type RunFigures, runLoad } from "./load-driver.ts";
import { type ProcessFigures, watchProcesses } from "./load-probe.ts";
import { errorCount, type LevelResult, printLevel, readShare, rssChange, writeResults } from "./load-report.ts";
import {
  type Dependencies,
  importXml,
  type RunningShape,
  refreshSignIns,
  type Service,
  startDependencies,
  startSplit,
  startStandalone,
} from "./load-shapes.ts";
import { type Fleet, workload } from "./load-workload.ts";

/**
 * `pnpm bench:load [standalone|split] [connections...]`: the mixed workload through the gateway at fixed
 * concurrency, beside the bare floor server at the same concurrency in the same run. LOAD_SECONDS (default 5) is the
 * length of each run; a level makes three (floor reads, gateway reads, mixed). LOAD_ORGS (default 20) organizations
 * of three members each. The target run: `LOAD_SECONDS=60 ./pnpm bench:load split 32`.
 */
export type LoadOptions = { shapes: ("standalone" | "split")[]; levels: number[]; seconds: number; orgs: number };

export const defaultLoadOptions = (): LoadOptions => ({
  shapes: ["standalone", "split"],
  levels: [1, 8, 32, 128],
  seconds: Number(process.env.LOAD_SECONDS ?? 5),
  orgs: Number(process.env.LOAD_ORGS ?? 20),
});

/** The levels the issue sets targets at. */
const TARGETS = { split: { connections: 32, p99: 50 }, standalone: { connections: 8, p99: 100 } } as const;

/** Runs one mix while the processes serving it are watched. */
async function measured(
  services: Service[],
  base: string,
  operations: Operation[],
  connections: number,
  seconds: number,
) {
  const watch = await watchProcesses(services, seconds);
  const run = await runLoad({ base, operations, connections, seconds });
  return { run, processes: await watch.stop() };
}

async function runLevel(shape: RunningShape, fleet: Fleet, connections: number, seconds: number): Promise<LevelResult> {
  const mixes = workload(fleet, connections);
  const floorReads = await measured([shape.floor], shape.floorBase, mixes.floorReads, connections, seconds);
  const gatewayReads = await measured(shape.services, shape.base, mixes.gatewayReads, connections, seconds);
  // A request still in flight when the previous run stopped never settles: start every run with nothing held.
  for (const org of fleet.organizations) org.running = { imports: 0, explores: 0 };
  const mixed = await measured(shape.services, shape.base, mixes.mixed, connections, seconds);
  return {
    shape: shape.name,
    description: shape.description,
    connections,
    seconds,
    floorReads: floorReads.run,
    gatewayReads: gatewayReads.run,
    readCpuMs: {
      floor: cpuPerRequest(floorReads.processes, floorReads.run),
      gateway: cpuPerRequest(gatewayReads.processes, gatewayReads.run),
    },
    mixed: mixed.run,
    processes: mixed.processes,
    floorProcess: floorReads.processes[0]!,
    loadAverage: loadavg()[0]!,
  };
}

/**
 * CPU milliseconds the serving processes spent per answered request: what a read costs, which a machine shared with
 * other work changes far less than it changes throughput.
 */
function cpuPerRequest(processes: ProcessFigures[], run: RunFigures) {
  return (1000 * processes.reduce((sum, p) => sum + p.cpuSeconds, 0)) / Math.max(1, run.all.count);
}

/** The targets at the levels that were run; each printed with met or missed and counted in the summary. */
function judge(levels: LevelResult[]) {
  const targets: { line: string; ok: boolean }[] = [];
  const add = (name: string, line: string, ok: boolean) => {
    verdict(name, line, ok);
    targets.push({ line, ok });
  };
  for (const level of levels) {
    const errors = errorCount(level.mixed) + errorCount(level.gatewayReads) + errorCount(level.floorReads);
    const where = `${level.shape}, ${level.connections} connections`;
    add(`load ${where}: errors`, `${where}: ${errors} errors (target 0)`, errors === 0);
    const target = TARGETS[level.shape];
    if (level.connections !== target.connections) continue;
    const p99 = level.mixed.all.p99;
    add(
      `load ${where}: p99`,
      `${where}: mixed p99 ${p99.toFixed(1)} ms (target <= ${target.p99} ms)`,
      p99 <= target.p99,
    );
    if (level.shape === "split") {
      const share = readShare(level);
      add(
        `load ${where}: read throughput`,
        `${where}: reads through the gateway ${level.gatewayReads.all.perSecond.toFixed(0)} req/s = ${(100 * share).toFixed(0)}% of the bare floor's ${level.floorReads.all.perSecond.toFixed(0)} req/s (target >= 50%)`,
        share >= 0.5,
      );
    }
    if (level.seconds >= 20) {
      for (const p of level.processes) {
        const change = Math.abs(p.rssLastMb - p.rssEarlyMb) / p.rssEarlyMb;
        add(
          `load ${where}: ${p.name} RSS`,
          `${where}: ${p.name} RSS ${p.rssEarlyMb.toFixed(0)} MB at ${p.rssEarlyAt.toFixed(0)} s, ${p.rssLastMb.toFixed(0)} MB at the end (${rssChange(p)}; target within 10%)`,
          change <= 0.1,
        );
      }
    } else {
      console.log(`      (RSS flatness is judged on runs of 20 s or more; this one lasted ${level.seconds} s)`);
    }
  }
  return targets;
}

async function runShape(name: "standalone" | "split", deps: Dependencies, opts: LoadOptions): Promise<LevelResult[]> {
  const started = await (name === "standalone" ? startStandalone(deps, opts.orgs) : startSplit(deps, opts.orgs));
  const { shape } = started;
  const fleet: Fleet = {
    organizations: started.organizations,
    origin: shape.base,
    importXml: importXml(),
    exploreUnavailable: deps.neo4jMissing,
  };
  const levels: LevelResult[] = [];
  try {
    // Unmeasured, the product and the floor alike: V8 compiles the hot paths, the pools open their connections and
    // the database's pages are read once before the first figure.
    const warm = workload(fleet, 0);
    await runLoad({ base: shape.floorBase, operations: warm.floorReads, connections: 8, seconds: 3 });
    await runLoad({ base: shape.base, operations: warm.mixed, connections: 8, seconds: 3 });
    let signedInAt = Date.now();
    for (const connections of opts.levels) {
      if (Date.now() - signedInAt > 10 * 60_000) {
        await refreshSignIns(shape.base, fleet);
        signedInAt = Date.now();
      }
      section(
        `Load, ${name} (${shape.description}): ${connections} connections, ${opts.seconds} s per run, ${fleet.organizations.length} organizations x 3 members`,
      );
      if (fleet.exploreUnavailable) console.log(`  explore is not in the mix: ${fleet.exploreUnavailable}`);
      const level = await runLevel(shape, fleet, connections, opts.seconds);
      printLevel(level);
      levels.push(level);
    }
  } finally {
    await shape.stop();
  }
  return levels;
}

/** The whole suite; `pnpm bench` runs it with the defaults and counts its targets in the summary. */
export async function benchLoad(opts: LoadOptions = defaultLoadOptions()) {
  const deps = await startDependencies();
  const levels: LevelResult[] = [];
  try {
    for (const name of opts.shapes) levels.push(...(await runShape(name, deps, opts)));
  } finally {
    await deps.stop();
  }
  section("Load targets");
  const targets = judge(levels);
  console.log(`      results: ${writeResults(levels, targets)}`);
  return levels;
}

/** Arguments: a shape name and/or concurrency levels, e.g. `split 32` or `standalone 1 8`. */
function parseArgs(argv: string[]): LoadOptions {
  const opts = defaultLoadOptions();
  const shapes = argv.filter((a): a is "standalone" | "split" => a === "standalone" || a === "split");
  const levels = argv.filter((a) => /^\d+$/.test(a)).map(Number);
  const unknown = argv.filter((a) => !shapes.includes(a as never) && !/^\d+$/.test(a));
  if (unknown.length)
    throw new Error(`unknown argument ${unknown.join(", ")}: give standalone, split and/or connection counts`);
  return { ...opts, shapes: shapes.length ? shapes : opts.shapes, levels: levels.length ? levels : opts.levels };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await benchLoad(parseArgs(process.argv.slice(2)));
  summary();
  process.exit(0);
}
