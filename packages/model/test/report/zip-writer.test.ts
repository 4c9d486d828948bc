import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { zipEntries } from "../../src/report/zip-writer.ts";
import { readZip } from "../../src/transfer/read-zip.ts";

async function zipOf(pages: { name: string; body: string }[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const bytes of zipEntries(pages)) chunks.push(bytes);
  return Buffer.concat(chunks);
}

describe("the report's ZIP writer", () => {
  // Pages are compressed several at a time on shared deflate streams: each file must still hold exactly its own page.
  const pages = Array.from({ length: 2_000 }, (_, i) => ({
    name: `elements/e-${i}.html`,
    body: i % 9 === 0 ? "" : `<p>Zürich ✓ ${i}</p>`.repeat((i % 40) * 11 + 1) + "x".repeat(i % 5),
  }));

  test("every file, empty ones and repeated-flush ones included, reads back as its own page, in order", async () => {
    const zip = await zipOf(pages);
    const entries = readZip(zip, { maxEntries: 10_000, maxTotalBytes: 100_000_000 });
    expect(entries.map((e) => e.name)).toEqual(pages.map((p) => p.name));
    const decoder = new TextDecoder();
    expect(entries.map((e) => decoder.decode(e.bytes))).toEqual(pages.map((p) => p.body));
  });

  test("unzip's own integrity test passes (CRCs and sizes as written in the headers)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ams-zip-"));
    try {
      const file = join(dir, "report.zip");
      writeFileSync(file, await zipOf(pages.slice(0, 300)));
      const out = execFileSync("unzip", ["-tq", file], { encoding: "utf8" });
      expect(out).toContain("No errors detected");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
