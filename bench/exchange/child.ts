import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { openDatabase } from "@ams/db";
import { importModel, parseExchange } from "@ams/model";
import { contextFor } from "./render-floor.ts";

export type ChildResult = { ms: number; maxRssMb: number };

/** `node bench/exchange/child.ts import|parse FILE [DB_URL ORG WS]` in a fresh process: one cold run and its peak RSS. */
export async function runChild(
  mode: string,
  file: string,
  url?: string,
  org?: string,
  ws?: string,
): Promise<ChildResult> {
  const xml = readFileSync(file, "utf8");
  let ms: number;
  if (mode === "parse") {
    const t = performance.now();
    parseExchange(xml);
    ms = performance.now() - t;
  } else {
    // One connection, opened before the clock starts: the figure is the import, not the handshake.
    const database = await openDatabase({ url: url!, migrate: false, maxConnections: 1 });
    try {
      await database.ping();
      const t = performance.now();
      await importModel({ ctx: contextFor(database, org!, ws!), input: { xml } });
      ms = performance.now() - t;
    } finally {
      await database.close();
    }
  }
  return { ms, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

export async function inChild(...args: string[]): Promise<ChildResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [import.meta.filename, ...args], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as ChildResult;
}

if (import.meta.main) {
  const [mode, ...args] = process.argv.slice(2);
  console.log(JSON.stringify(await runChild(mode!, args[0]!, args[1], args[2], args[3])));
  process.exit(0);
}
