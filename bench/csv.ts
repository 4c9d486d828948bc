import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import {
  csvFiles,
  exportCsvFiles,
  exportModel,
  generateModel,
  importCsv,
  importModel,
  serializeExchange,
} from "@ams/model";
import { contextFor } from "./exchange/render-floor.ts";
import { interleave, load, timed } from "./exchange/timing.ts";
import { report, section } from "./lib.ts";

/**
 * Issue 27: Archi's CSV import and export of a 10k-element model, each beside the Open Exchange XML import and export
 * of the same model (the floor), measured in the same run and interleaved round by round. The model has no views:
 * the CSV files carry elements, relationships and properties only, so the XML carries exactly the same content.
 */
export async function benchCsv() {
  const database = await createTestDatabase("ams_bench_csv");
  try {
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench', 'Bench') returning id`,
    );
    const workspace = async (name: string) =>
      (
        await database.rows<{ id: string }>(
          sql`insert into workspaces (organization_id, name) values (${org!.id}, ${name}) returning id`,
        )
      )[0]!.id;
    const dropWorkspace = (ws: string) => database.rows(sql`delete from workspaces where id = ${ws}`);
    const doc = generateModel({ elements: 10_000, relationships: 15_000, views: 0, seed: 27, properties: true });
    doc.model.identifier = "id-bench-model";
    const xml = serializeExchange(doc);
    const csv = csvFiles(doc, "id-bench-model");
    const encoder = new TextEncoder();
    const files = [
      { name: "elements.csv", bytes: encoder.encode(csv.elements) },
      { name: "relations.csv", bytes: encoder.encode(csv.relations) },
      { name: "properties.csv", bytes: encoder.encode(csv.properties) },
    ];
    const csvBytes = files.reduce((n, f) => n + f.bytes.length, 0);
    section(
      `CSV (Archi's format): ${doc.elements.length} elements, ${doc.relationships.length} relationships, ${doc.properties.length} properties; ${(xml.length / 1e6).toFixed(1)} MB XML, ${(csvBytes / 1e6).toFixed(1)} MB CSV — ${load()}`,
    );
    const into = (ws: string) => contextFor(database, org!.id, ws);
    const imp = await interleave(
      {
        csv: async () => {
          const ws = await workspace("csv");
          return timed(
            () => importCsv({ ctx: into(ws), input: { files } }),
            () => dropWorkspace(ws),
          );
        },
        xml: async () => {
          const ws = await workspace("xml");
          return timed(
            () => importModel({ ctx: into(ws), input: { xml } }),
            () => dropWorkspace(ws),
          );
        },
      },
      { rounds: 5, warmup: 1 },
    );
    report(
      "CSV import of 10k elements into an empty workspace, median",
      imp.csv!.median,
      imp.xml!.median,
      "<= 1.5x the XML import of the same model",
      imp.csv!.median <= 1.5 * imp.xml!.median,
    );

    const ws = await workspace("export");
    await importModel({ ctx: into(ws), input: { xml } });
    const exp = await interleave(
      {
        csv: () => exportCsvFiles({ ctx: into(ws) }),
        xml: () => exportModel({ ctx: into(ws) }),
      },
      { rounds: 7, warmup: 2 },
    );
    report(
      "CSV export of 10k elements, median",
      exp.csv!.median,
      exp.xml!.median,
      "<= 1.5x the XML export of the same model",
      exp.csv!.median <= 1.5 * exp.xml!.median,
    );
  } finally {
    await database.drop();
  }
}
