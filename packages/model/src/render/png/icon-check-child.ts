import { writeSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

/**
 * Child process of icon-safety.ts: draws each icon document it is given on stdin (one JSON line each: `{i, svg}`) at
 * three scales, and says `start i` before and `ok i` after, written synchronously so that the parent sees the last
 * `start` of a drawing that aborted the process (resvg panics instead of failing on some documents).
 */
const require = createRequire(import.meta.url);
const { Resvg } = require("@resvg/resvg-js") as typeof import("@resvg/resvg-js");

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { i, svg } = JSON.parse(line) as { i: number; svg: string };
  writeSync(1, `start ${i}\n`);
  for (const zoom of [0.25, 1, 4]) {
    new Resvg(svg, { fitTo: { mode: "zoom", value: zoom }, font: { loadSystemFonts: false } }).render();
  }
  writeSync(1, `ok ${i}\n`);
}
