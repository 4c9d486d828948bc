import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { must } from "./lib.ts";
import type { Service } from "./load-shapes.ts";

/** What one process cost over a run, from the Prometheus figures it publishes on its metrics port. */
export type ProcessFigures = {
  name: string;
  /** CPU time (user + system) spent during the run, and that as a share of one core. */
  cpuSeconds: number;
  cpuPercent: number;
  /** Resident memory at the early mark (the 10th second, or the middle of a run shorter than 20 s) and at the end. */
  rssEarlyMb: number;
  rssEarlyAt: number;
  rssLastMb: number;
  /**
   * The V8 heap around the same two marks: the lowest "in use" sample within 5 s of each (what survived the
   * collections there: a growing figure is retained memory) and the heap V8 had reserved (which grows with the rate
   * of allocation, up to its young-generation limit, without anything being retained).
   */
  heapLowEarlyMb: number;
  heapLowLastMb: number;
  heapTotalEarlyMb: number;
  heapTotalLastMb: number;
  /** Event-loop delay (monitorEventLoopDelay): the worst one-second p99, and the largest single delay. */
  eventLoopP99Ms: number;
  eventLoopMaxMs: number;
};

type Sample = { at: number; cpu: number; rss: number; heapUsed: number; heapTotal: number; p99: number; max: number };

/** One value of a Prometheus text exposition (the first series of that name). */
function value(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

/**
 * Where each process's figures come from: the Prometheus figures it publishes, or, for a process that publishes none
 * (the services of a tree before 25 November, which `pnpm bench:compare` may run), the kernel's account of it in
 * /proc: the same CPU time (user + system, every thread) and resident memory, with no heap or event-loop figures.
 */
const sources = new WeakMap<Service, "metrics" | "proc">();

async function sourceOf(service: Service): Promise<"metrics" | "proc"> {
  let source = sources.get(service);
  if (!source) {
    const published = await fetch(service.metricsUrl).then(
      (r) => r.ok,
      () => false,
    );
    source = published ? "metrics" : "proc";
    if (source === "proc")
      console.log(
        `      ${service.name} publishes no /metrics: its CPU and RSS are read from /proc/${service.pid}, heap and event-loop delay are not known`,
      );
    sources.set(service, source);
  }
  return source;
}

let ticksPerSecond: number | undefined;

/** CPU seconds and resident memory of a process as the kernel counts them (Linux). */
function readProc(pid: number, at: number): Sample {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After "pid (name) " the fields run from the state (field 3); utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const rssKb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return {
    at,
    cpu: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond,
    rss: rssKb ? Number(rssKb[1]) / 1024 : Number.NaN,
    heapUsed: Number.NaN,
    heapTotal: Number.NaN,
    p99: Number.NaN,
    max: Number.NaN,
  };
}

async function scrape(service: Service, at: number): Promise<Sample> {
  if ((await sourceOf(service)) === "proc") return readProc(service.pid, at);
  const text = await (await fetch(service.metricsUrl)).text();
  return {
    at,
    cpu:
      value(text, "archimate_process_cpu_user_seconds_total") +
      value(text, "archimate_process_cpu_system_seconds_total"),
    rss: value(text, "archimate_process_resident_memory_bytes") / 2 ** 20,
    heapUsed: value(text, "archimate_nodejs_heap_size_used_bytes") / 2 ** 20,
    heapTotal: value(text, "archimate_nodejs_heap_size_total_bytes") / 2 ** 20,
    // prom-client resets its event-loop histogram at every scrape: each sample covers the second before it.
    p99: value(text, "archimate_nodejs_eventloop_lag_p99_seconds") * 1000,
    max: value(text, "archimate_nodejs_eventloop_lag_max_seconds") * 1000,
  };
}

/**
 * Samples every process once a second while a run lasts. The first scrape is the baseline (and empties the
 * event-loop histogram), so the figures cover the run alone.
 */
export async function watchProcesses(services: readonly Service[], seconds: number) {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const samples = new Map<string, Sample[]>(
    await Promise.all(services.map(async (s) => [s.name, [await scrape(s, 0)]] as [string, Sample[]])),
  );
  const tick = setInterval(() => {
    for (const service of services) {
      scrape(service, elapsed()).then(
        (sample) => must(samples.get(service.name), service.name).push(sample),
        () => {},
      );
    }
  }, 1000);
  const earlyMark = seconds >= 20 ? 10 : seconds / 2;
  return {
    async stop(): Promise<ProcessFigures[]> {
      clearInterval(tick);
      const end = elapsed();
      return Promise.all(
        services.map(async (service) => {
          const list = must(samples.get(service.name), service.name);
          const last = await scrape(service, end);
          const during = [...list.slice(1), last];
          const early = during.reduce((best, s) =>
            Math.abs(s.at - earlyMark) < Math.abs(best.at - earlyMark) ? s : best,
          );
          const near = (mark: number) => during.filter((s) => Math.abs(s.at - mark) <= 5);
          const lowest = (xs: Sample[]) => Math.min(...xs.map((s) => s.heapUsed));
          const cpuSeconds = last.cpu - must(list[0], "the baseline sample").cpu;
          return {
            name: service.name,
            cpuSeconds,
            cpuPercent: (100 * cpuSeconds) / end,
            rssEarlyMb: early.rss,
            rssEarlyAt: early.at,
            rssLastMb: last.rss,
            heapLowEarlyMb: lowest(near(early.at)),
            heapLowLastMb: lowest(near(end)),
            heapTotalEarlyMb: early.heapTotal,
            heapTotalLastMb: last.heapTotal,
            eventLoopP99Ms: Math.max(...during.map((s) => s.p99)),
            eventLoopMaxMs: Math.max(...during.map((s) => s.max)),
          };
        }),
      );
    },
  };
}
