import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createPropertyDefinition,
  createVersion,
  exportReport,
  generateModel,
  importModel,
  indexReport,
  listElements,
  listRelationships,
  listViews,
  type RequestContext,
  readModel,
  reportEntries,
  serializeExchange,
  updateElement,
  updateRelationship,
  updateView,
} from "../../src/index.ts";
import { SYSTEM_ICON_PACK } from "../../src/properties/definitions.ts";
import { readReport } from "../../src/report/read-report.ts";
import { readSample, sampleFiles } from "../exchange/helpers.ts";
import { ownerContext } from "../history/support.ts";

/**
 * The report of the current model is read in pieces (an index, then each chunk of pages' detail) in one snapshot;
 * a version's is built from the whole document. Both must give the same files, byte for byte, in the same order.
 */
let database: TestDatabase;
const tmp = mkdtempSync(path.join(tmpdir(), "ams-report-stream-"));
beforeAll(async () => {
  database = await createTestDatabase("ams_report_streamed");
});
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await database?.drop();
});

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16"/></svg>';

/** The files of a report ZIP in their order, read by Python's zipfile (a reader that is not ours). */
async function filesOf(body: ReadableStream<Uint8Array>): Promise<[string, string][]> {
  const zip = path.join(mkdtempSync(path.join(tmp, "zip-")), "report.zip");
  writeFileSync(zip, Buffer.from(await new Response(body).arrayBuffer()));
  const json = execFileSync(
    "python3",
    [
      "-c",
      "import sys,zipfile,json;z=zipfile.ZipFile(sys.argv[1]);assert z.testzip() is None;" +
        "print(json.dumps([[n,z.read(n).decode('utf-8')] for n in z.namelist()]))",
      zip,
    ],
    { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
  );
  return JSON.parse(json) as [string, string][];
}

async function collect(entries: AsyncIterable<{ name: string; body: string }>): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const e of entries) out.push([e.name, e.body]);
  return out;
}

/** A workspace holding the model of `xml`, with an icon pack and documentation and properties on each kind. */
async function workspaceWith(xml: string): Promise<RequestContext> {
  const owner = await ownerContext(database);
  const ctx: RequestContext = {
    ...owner,
    resolveIcon: (value) => (value === "cloud/lambda" ? { svg: ICON } : undefined),
  };
  await importModel({ ctx, input: { xml } });
  const definitions: [string, string][] = [
    ["report-owner", "Report owner"],
    ["report-since", "Report since"],
    ["report-tier", "Report tier"],
  ];
  for (const [id, name] of definitions) await createPropertyDefinition({ ctx, input: { id, name, type: "string" } });
  // An element some view shows, so its icon is drawn.
  const [shown] = await database.rows<{ id: string }>(
    sql`select element_id as id from view_nodes where workspace_id = ${ctx.workspaceId} and element_id is not null
        order by view_id, ord limit 1`,
  );
  const [first] = await listElements({ ctx, input: {} });
  const element = shown ?? first;
  if (element)
    await updateElement({
      ctx,
      input: {
        id: element.id,
        documentation: "Runs <everything> & more",
        properties: { [SYSTEM_ICON_PACK]: "cloud/lambda", "Report owner": "Ops" },
      },
    });
  const [relationship] = await listRelationships({ ctx, input: {} });
  if (relationship)
    await updateRelationship({
      ctx,
      input: { id: relationship.id, documentation: "Why it serves", properties: { "Report since": "2024" } },
    });
  const [view] = await listViews({ ctx });
  if (view)
    await updateView({
      ctx,
      input: { id: view.id, documentation: "What it shows", properties: { "Report tier": "1" } },
    });
  return ctx;
}

describe("the streamed report", () => {
  test.each(sampleFiles())("%s: the same files as the report built from the whole model", async (file) => {
    const ctx = await workspaceWith(readSample(file));
    const version = await createVersion({ ctx, input: { name: "Now" } });
    const streamed = await filesOf((await exportReport({ ctx })).body);
    const whole = await filesOf((await exportReport({ ctx, input: { version: version.id } })).body);
    expect(streamed.map(([name]) => name)).toEqual(whole.map(([name]) => name));
    expect(streamed).toEqual(whole);
    // Every element, relationship and view has its page.
    const doc = await readModel(database, ctx.workspaceId ?? "");
    expect(streamed.length).toBe(6 + doc.elements.length + doc.relationships.length + doc.views.length);
  });

  test("chunks of a few pages each give the same pages as one read of the whole model", async () => {
    const ctx = await workspaceWith(
      serializeExchange(
        generateModel({ elements: 120, relationships: 260, views: 9, nodesPerView: 12, seed: 3, properties: true }),
      ),
    );
    const ws = ctx.workspaceId ?? "";
    const whole = indexReport(await readModel(database, ws), ctx.resolveIcon);
    const expected = await collect(reportEntries(whole, () => whole));
    const chunks: string[] = [];
    const streamed = await database.db.transaction(
      async (tx) => {
        const reader = await readReport(database, ws, tx, ctx.resolveIcon);
        const detailOf: typeof reader.detailOf = (chunk) => {
          chunks.push(chunk.kind === "model" ? "model" : `${chunk.kind}:${chunk.ids.length}`);
          return reader.detailOf(chunk);
        };
        return collect(reportEntries(reader.index, detailOf, { views: 2, elements: 7, relationships: 50 }));
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    expect(streamed).toEqual(expected);
    // Read in pieces: 5 chunks of views, 18 of elements, 6 of relationships (the last of each a part).
    expect(chunks.filter((c) => c.startsWith("views")).length).toBe(5);
    expect(chunks.filter((c) => c.startsWith("elements")).length).toBe(18);
    expect(chunks).toContain("elements:1");
    expect(chunks.filter((c) => c.startsWith("relationships")).length).toBe(Math.ceil(whole.relationships.size / 50));
    // The icon pack is drawn where the element shows (an inline icon: the report is offline).
    expect(expected.some(([name, body]) => name.startsWith("views/") && body.includes('<svg class="icon"'))).toBe(true);
  });

  test("a download given up halfway lets go of its snapshot (no transaction left open)", async () => {
    const ctx = await workspaceWith(
      serializeExchange(generateModel({ elements: 3000, relationships: 6000, views: 60, seed: 5, properties: true })),
    );
    const openTransactions = async () =>
      (
        await database.rows<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`,
        )
      )[0]?.n ?? 0;
    const reader = (await exportReport({ ctx })).body.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(await openTransactions()).toBe(1);
    await reader.cancel();
    for (let i = 0; i < 50 && (await openTransactions()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await openTransactions()).toBe(0);
  });
});
