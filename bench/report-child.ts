import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { openDatabase } from "@ams/db";
import { exportModel, exportReport } from "@ams/model";
import { contextFor } from "./exchange/render-floor.ts";

export type ReportChildResult = { ms: number; maxRssMb: number; bytes: number };

/**
 * `node bench/report-child.ts html|xml DB_URL ORG WS` in a fresh process: one cold export (the HTML report's ZIP read
 * to its end, or the XML) and the process's peak RSS.
 */
async function runChild(mode: string, url: string, org: string, ws: string): Promise<ReportChildResult> {
  const database = await openDatabase({ url, migrate: false, maxConnections: 2 });
  try {
    await database.ping();
    const ctx = contextFor(database, org, ws);
    const t = performance.now();
    let bytes = 0;
    if (mode === "html") {
      const reader = (await exportReport({ ctx })).body.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    } else {
      bytes = (await exportModel({ ctx })).xml.length;
    }
    return { ms: performance.now() - t, maxRssMb: process.resourceUsage().maxRSS / 1024, bytes };
  } finally {
    await database.close();
  }
}

/** One run in a fresh process; `nodeFlags` e.g. a heap cap (--max-old-space-size). */
export async function reportInChild(nodeFlags: string[], ...args: string[]): Promise<ReportChildResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeFlags, import.meta.filename, ...args], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as ReportChildResult;
}

if (import.meta.main) {
  const [mode, url, org, ws] = process.argv.slice(2);
  console.log(JSON.stringify(await runChild(mode ?? "html", url ?? "", org ?? "", ws ?? "")));
  process.exit(0);
}
