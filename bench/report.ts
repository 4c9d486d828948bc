import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { exportModel, exportReport, generateModel, importModel, serializeExchange } from "@ams/model";
import { contextFor } from "./exchange/render-floor.ts";
import { interleave, load } from "./exchange/timing.ts";
import { figure, report, section, verdict } from "./lib.ts";
import { reportInChild } from "./report-child.ts";
import { reportInService, reportReader } from "./report-service.ts";
import { serviceNodeOptions } from "./service-node-options.ts";

/**
 * Issue 27: the HTML report (GET /api/export?format=html), each figure beside the XML export of the same model
 * measured in the same run: the report reads the same model, then writes a page per view, element and relationship.
 * - ArchiMetal-sized (565 elements, 724 relationships, 72 views): the whole ZIP read to its end, in this process;
 * - 10k elements: one cold export per fresh process (the model read in pieces, the archive streamed), run with the
 *   NODE_OPTIONS the service images give every service: the process's peak RSS over its life, beside an idle
 *   process's (module loading alone), and the RSS sampled while it exports; then the standalone service itself
 *   (services/control/src/main.ts, as started) exporting it over HTTP, its peak RSS once ready and after.
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
    const idle = await reportInChild([], "idle", database.url, orgId, big);
    const html = await reportInChild([], "html", database.url, orgId, big);
    const xml = await reportInChild([], "xml", database.url, orgId, big);
    // The same export with the heap capped at 192 MB: what it needs alive (V8 grows its heap lazily, so a default
    // process's peak holds garbage not yet collected). Shown beside the verdict, which is the default process's.
    const capped = await reportInChild(["--max-old-space-size=192"], "html", database.url, orgId, big);
    // The same export from the service itself, over HTTP: what the process a deployment runs holds.
    const service = await reportInService(database.url, await reportReader(database, orgId), big);
    report(
      "HTML report ZIP, 10k elements (cold process)",
      html.ms,
      xml.ms,
      "<= 30 s (floor: XML export, cold process)",
      html.ms <= 30_000,
    );
    const mb = (n: number) => n.toFixed(0);
    figure("HTML report, 10k: peak RSS of the process (MB)", html.maxRssMb, "MB");
    figure("idle process (modules loaded, database open): peak RSS (MB)", idle.maxRssMb, "MB");
    figure("XML export, 10k: peak RSS of the process (MB)", xml.maxRssMb, "MB");
    figure("HTML report, 10k, 192 MB heap cap: peak RSS (MB)", capped.maxRssMb, "MB");
    verdict(
      "HTML report, 10k: peak RSS",
      `HTML report, 10k: peak RSS ${mb(html.maxRssMb)} MB, the whole process over its life, ` +
        `NODE_OPTIONS as the services run (${serviceNodeOptions() || "none"}) ` +
        `(the idle process, same modules loaded and database open: ${mb(idle.maxRssMb)} MB); while the report was built ` +
        `${mb(html.startRssMb)} -> ${mb(html.exportRssMb)} MB (XML export: ${mb(xml.startRssMb)} -> ${mb(xml.exportRssMb)} MB, ` +
        `its process's peak ${mb(xml.maxRssMb)} MB); report with a 192 MB heap cap: peak ${mb(capped.maxRssMb)} MB, ` +
        `${(capped.ms / 1000).toFixed(1)} s; ZIP ${(html.bytes / 1e6).toFixed(1)} MB   target: <= 300 MB`,
      html.maxRssMb <= 300 && capped.bytes === html.bytes,
    );
    figure("standalone service, ready: peak RSS (MB)", service.readyMb, "MB");
    figure("standalone service, after the 10k report: peak RSS (MB)", service.peakMb, "MB");
    verdict(
      "HTML report, 10k, standalone service: peak RSS",
      `HTML report, 10k, from the standalone service (control, tenant and mcp in one process, as started: ` +
        `NODE_OPTIONS ${serviceNodeOptions() || "none"}) over HTTP: peak RSS ${mb(service.peakMb)} MB over its life ` +
        `(once ready: ${mb(service.readyMb)} MB), ${(service.ms / 1000).toFixed(1)} s, ZIP ` +
        `${(service.bytes / 1e6).toFixed(1)} MB   target: <= 300 MB`,
      service.peakMb <= 300 && service.bytes === html.bytes,
    );
  } finally {
    await database.drop();
  }
}
