import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { openDatabase } from "@ams/db";
import { exportModel, exportReport } from "@ams/model";
import { contextFor } from "./exchange/render-floor.ts";
import { withServiceNodeOptions } from "./service-node-options.ts";

export type ReportChildResult = {
  ms: number;
  /** The process's peak RSS over its whole life (getrusage), module loading included. */
  maxRssMb: number;
  /** RSS when the export began, and the highest RSS sampled (every 10 ms) from then until it ended. */
  startRssMb: number;
  exportRssMb: number;
  bytes: number;
};

/**
 * `node bench/report-child.ts html|xml|idle DB_URL ORG WS` in a fresh process: one cold export (the HTML report's ZIP
 * read to its end, or the XML) and the process's peak RSS (getrusage: this process alone, nothing subtracted). `idle`
 * exports nothing: the same process with the same modules loaded and the database opened, its peak RSS the floor
 * every export's figure includes.
 */
async function runChild(mode: string, url: string, org: string, ws: string): Promise<ReportChildResult> {
  const database = await openDatabase({ url, migrate: false, maxConnections: 2 });
  try {
    await database.ping();
    const ctx = contextFor(database, org, ws);
    const startRss = process.memoryUsage.rss();
    let exportRss = startRss;
    const sampler = setInterval(() => {
      exportRss = Math.max(exportRss, process.memoryUsage.rss());
    }, 10);
    const t = performance.now();
    let bytes = 0;
    if (mode === "html") {
      const reader = (await exportReport({ ctx })).body.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    } else if (mode === "xml") {
      bytes = (await exportModel({ ctx })).xml.length;
    }
    const ms = performance.now() - t;
    clearInterval(sampler);
    exportRss = Math.max(exportRss, process.memoryUsage.rss());
    const mb = (bytes: number) => bytes / 1024 / 1024;
    return {
      ms,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      startRssMb: mb(startRss),
      exportRssMb: mb(exportRss),
      bytes,
    };
  } finally {
    await database.close();
  }
}

/**
 * One run in a fresh process, with the NODE_OPTIONS the service images run every service with (the process stands in
 * for the service that builds the report); `nodeFlags` adds to them, e.g. a heap cap (--max-old-space-size).
 */
export async function reportInChild(nodeFlags: string[], ...args: string[]): Promise<ReportChildResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeFlags, import.meta.filename, ...args], {
    env: withServiceNodeOptions({ ...process.env }),
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as ReportChildResult;
}

if (import.meta.main) {
  const [mode, url, org, ws] = process.argv.slice(2);
  console.log(JSON.stringify(await runChild(mode ?? "html", url ?? "", org ?? "", ws ?? "")));
  process.exit(0);
}
