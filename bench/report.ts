import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { exportModel, exportReport, generateModel, importModel, serializeExchange } from "@ams/model";
import { contextFor } from "./exchange/render-floor.ts";
import { interleave, load } from "./exchange/timing.ts";
import { report, section, verdict } from "./lib.ts";
import { reportInChild } from "./report-child.ts";

/**
 * Issue 27: the HTML report (GET /api/export?format=html), each figure beside the XML export of the same model
 * measured in the same run: the report reads the same model, then writes a page per view, element and relationship.
 * - ArchiMetal-sized (565 elements, 724 relationships, 72 views): the whole ZIP read to its end, in this process;
 * - 10k elements: one cold export per fresh process, its peak RSS read (the archive is streamed, pages built one at
 *   a time).
 */
export async function benchReport() {
  const database = await createTestDatabase("ams_bench_report");
  try {
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench', 'Bench') returning id`,
    );
    const orgId = org?.id ?? "";
    const workspace = async (name: string) =>
      (
        await database.rows<{ id: string }>(
          sql`insert into workspaces (organization_id, name) values (${orgId}, ${name}) returning id`,
        )
      )[0]?.id ?? "";

    const small = await workspace("ArchiMetal-sized");
    const smallDoc = generateModel({
      elements: 565,
      relationships: 724,
      views: 72,
      nodesPerView: 20,
      seed: 7,
      properties: true,
    });
    const ctx = contextFor(database, orgId, small);
    await importModel({ ctx, input: { xml: serializeExchange(smallDoc) } });
    section(`HTML report: ArchiMetal-sized model (565 elements, 724 relationships, 72 views) — ${load()}`);
    // Returns nothing: interleave takes a number as the run's own time.
    const drain = async () => {
      const reader = (await exportReport({ ctx })).body.getReader();
      while (!(await reader.read()).done) {
        // read to the end
      }
    };
    const runs = await interleave({ report: drain, xml: () => exportModel({ ctx }) }, { rounds: 5, warmup: 1 });
    report(
      "HTML report ZIP, ArchiMetal-sized, median",
      runs.report?.median ?? 0,
      runs.xml?.median ?? 0,
      "<= 2 s (floor: XML export of the same model)",
      (runs.report?.median ?? Infinity) <= 2000,
    );

    const big = await workspace("10k");
    const bigDoc = generateModel({
      elements: 10_000,
      relationships: 20_000,
      views: 200,
      nodesPerView: 20,
      seed: 11,
      properties: true,
    });
    await importModel({ ctx: contextFor(database, orgId, big), input: { xml: serializeExchange(bigDoc) } });
    section(`HTML report: 10k model (10,000 elements, 20,000 relationships, 200 views) — ${load()}`);
    const html = await reportInChild([], "html", database.url, orgId, big);
    const xml = await reportInChild([], "xml", database.url, orgId, big);
    // V8 grows its heap lazily: a default process's peak RSS is mostly garbage not yet collected. The same export
    // with the heap capped at 192 MB shows what it needs alive (it would fail if the site were held in memory).
    const capped = await reportInChild(["--max-old-space-size=192"], "html", database.url, orgId, big);
    report(
      "HTML report ZIP, 10k elements (cold process)",
      html.ms,
      xml.ms,
      "<= 30 s (floor: XML export, cold process)",
      html.ms <= 30_000,
    );
    verdict(
      "HTML report, 10k: peak RSS",
      `HTML report, 10k: peak RSS ${capped.maxRssMb.toFixed(0)} MB with a 192 MB heap cap (${(capped.ms / 1000).toFixed(1)} s); ` +
        `uncapped ${html.maxRssMb.toFixed(0)} MB (XML export alone, uncapped: ${xml.maxRssMb.toFixed(0)} MB); ZIP ${(html.bytes / 1e6).toFixed(1)} MB   target: <= 300 MB`,
      capped.maxRssMb <= 300 && capped.bytes === html.bytes,
    );
  } finally {
    await database.drop();
  }
}
