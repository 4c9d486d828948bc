import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import {
  analyzeImpact,
  deriveRelationships,
  elementByIdQuery,
  generateModel,
  type RequestContext,
  renderViewImage,
  replaceModel,
} from "@ams/model";
import { interleaved, report, section } from "./lib.ts";

/** Elements analysed in turn: spread over the model, so no one element's neighbourhood (or cache) decides. */
const PROBES = Array.from({ length: 50 }, (_, i) => `e-${(i * 1999 + 7) % 100_000}`);

/**
 * Issue 26's analysis targets on the 100k-element model (200k relationships, generateModel's shape): impact at
 * depth 4 and derived relationships at chain length 3, each verb called as the routes call it, on real PostgreSQL,
 * interleaved with the floor: reading one element by id (the statement GET /api/elements/:id runs).
 */
export async function benchAnalysis() {
  const database = await createTestDatabase("ams_bench_analysis");
  try {
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench-analysis', 'Analysis') returning id`,
    );
    const [ws] = await database.rows<{ id: string }>(
      sql`insert into workspaces (organization_id, name) values (${org!.id}, 'Analysis 100k') returning id`,
    );
    const doc = generateModel({ elements: 100_000, seed: 42, properties: true });
    await database.db.transaction((tx) => replaceModel(database, tx, ws!.id, doc));
    await database.rows(sql`analyze`);
    const ctx: RequestContext = {
      database,
      userId: "bench",
      username: "bench",
      organizationId: org!.id,
      workspaceId: ws!.id,
      role: "viewer",
      platformAdmin: false,
    };
    let k = 0;
    const next = () => PROBES[k++ % PROBES.length] as string;
    const floor = async () => database.rows(elementByIdQuery(ws!.id, next()));
    let reached = 0;
    let derivedCount = 0;
    const dependents = async () => {
      reached += (await analyzeImpact({ ctx, input: { id: next(), depth: 4 } })).count;
    };
    const both = async () => analyzeImpact({ ctx, input: { id: next(), depth: 4, direction: "both" } });
    const derived = async () => {
      derivedCount += (await deriveRelationships({ ctx, input: { id: next(), max_length: 3 } })).count;
    };
    section("Analysis on the 100k-element model (200k relationships), PostgreSQL, verbs as the routes call them");
    const [f, dep, bo, der] = await interleaved([floor, dependents, both, derived], { iterations: 100, warmup: 10 });
    report("floor: one element by id, median", f!.median, null, "(the floor)", true);
    const line = (name: string, s: typeof f) => {
      report(`${name}, median`, s!.median, f!.median, "<= 200 ms", s!.median <= 200);
      console.log(`      p99 ${s!.p99.toFixed(1)} ms (the shared machine's load shows here first)`);
    };
    line(`impact, dependents, depth 4 (${Math.round(reached / 110)} elements on average)`, dep);
    line("impact, both directions, depth 4", bo);
    line(`derived relationships, chain length 3 (${(derivedCount / 110).toFixed(1)} on average)`, der);
    // A heatmap: the same view drawn plain and coloured by a property (Lifecycle, on every fifth element) and by a
    // metric, interleaved.
    // Pictures of an unchanged workspace are remembered per revision (views/picture.ts): each drawing here asks with a
    // `fit` no call asked before (fit shapes only PNGs, but it is part of the remembered picture's key), so every
    // figure but the last is a drawing made anew.
    const view = "v-500";
    let asked = 0;
    const fresh = () => ++asked;
    const plain = () => renderViewImage({ ctx, input: { id: view, format: "svg", fit: fresh() } });
    const byProperty = () =>
      renderViewImage({ ctx, input: { id: view, format: "svg", color_by: "Lifecycle", fit: fresh() } });
    const byImpact = () =>
      renderViewImage({ ctx, input: { id: view, format: "svg", color_by: "impact_count", fit: fresh() } });
    const remembered = () => renderViewImage({ ctx, input: { id: view, format: "svg", color_by: "Lifecycle" } });
    section("Heatmap: a 20-node view of the 100k model as SVG, plain and coloured (same run, interleaved)");
    const [p, hp, hi, hr] = await interleaved([plain, byProperty, byImpact, remembered], {
      iterations: 200,
      warmup: 20,
    });
    report("plain SVG render (drawn anew), median", p!.median, null, "(the floor)", true);
    report(
      `coloured by a property, median (+${((hp!.median / p!.median - 1) * 100).toFixed(0)}%)`,
      hp!.median,
      p!.median,
      "<= +20%",
      hp!.median <= p!.median * 1.2,
    );
    report(
      `coloured by impact count, median (+${((hi!.median / p!.median - 1) * 100).toFixed(0)}%)`,
      hi!.median,
      p!.median,
      "(reported; walks 3 steps)",
      true,
    );
    report(
      "coloured by a property again, unchanged workspace (remembered), median",
      hr!.median,
      p!.median,
      "(reported)",
      true,
    );
  } finally {
    await database.drop();
  }
}
