import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { openDatabase } from "@ams/db";
import { diffRevisions } from "@ams/model";
import { contextFor } from "../exchange/render-floor.ts";

export type DiffChildResult = { ms: number; maxRssMb: number; baseRssMb: number; changes: number };

/**
 * `node bench/history/diff-child.ts DB_URL ORG WS FROM TO` in a fresh process: one diff, its time and the process's
 * peak RSS (and the RSS before the diff: what the process costs doing nothing).
 */
async function runChild(url: string, org: string, ws: string, from: string, to: string): Promise<DiffChildResult> {
  const database = await openDatabase({ url, migrate: false, maxConnections: 2 });
  try {
    await database.ping();
    const baseRssMb = process.memoryUsage().rss / 1048576;
    const t = performance.now();
    const diff = await diffRevisions({ ctx: contextFor(database, org, ws), input: { from, to } });
    const ms = performance.now() - t;
    const kinds = [diff.elements, diff.relationships, diff.views, diff.property_definitions, diff.folders];
    const changes = kinds.reduce((n, k) => n + k.added.length + k.removed.length + k.changed.length, 0);
    return { ms, maxRssMb: process.resourceUsage().maxRSS / 1024, baseRssMb, changes };
  } finally {
    await database.close();
  }
}

export async function diffInChild(...args: string[]): Promise<DiffChildResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [import.meta.filename, ...args], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as DiffChildResult;
}

if (import.meta.main) {
  const [url, org, ws, from, to] = process.argv.slice(2);
  console.log(JSON.stringify(await runChild(url!, org!, ws!, from!, to!)));
  process.exit(0);
}
