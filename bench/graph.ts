import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import {
  clearLabel,
  createGraphWorker,
  createMemoryQueue,
  ensureGraphSchema,
  graphRows,
  neo4j,
  startLocalNeo4j,
} from "@ams/graph";
import {
  explore,
  generateModel,
  parseReadQuery,
  prepareScoped,
  printScoped,
  replaceModel,
  requestRebuild,
} from "@ams/model";
import { interleaved, measure, report, section } from "./lib.ts";

/** Rows per transaction of the bare floor: the graph worker's batch size. */
const FLOOR_BATCH = 20_000;

const EXPLORE_QUERY =
  "MATCH (a:ApplicationComponent)-[:SERVING]->(b:Element) RETURN a.name AS component, count(b) AS served ORDER BY served DESC LIMIT 10";

/**
 * Issue 6: graph rebuild throughput of a 100k-element, 200k-relationship model through the real path (job row,
 * queue, worker, PostgreSQL read, batched writes into a new generation, switch), beside bare batched UNWIND CREATEs of the
 * same rows in the same Neo4j; and what explore adds (parse, rewrite, slot lookup, EXPLAIN, plan check, row mapping) to
 * the same scoped query sent bare.
 * Uses NEO4J_URL (NEO4J_USER, NEO4J_PASSWORD) when set, otherwise starts a local Neo4j.
 */
export async function benchGraph() {
  const dataDir = process.env.NEO4J_URL ? undefined : mkdtempSync(join(tmpdir(), "ams-bench-neo4j-"));
  const local = dataDir ? await startLocalNeo4j({ dataDir, heap: "2g", pageCache: "512m" }) : undefined;
  const url = local?.url ?? process.env.NEO4J_URL!;
  const driver = neo4j.driver(
    url,
    neo4j.auth.basic(
      local?.user ?? process.env.NEO4J_USER ?? "neo4j",
      local?.password ?? process.env.NEO4J_PASSWORD ?? "",
    ),
  );
  const database = await createTestDatabase("ams_bench_graph");
  const queue = createMemoryQueue();
  const worker = createGraphWorker({ database, neo4j: driver, queue, graceMs: 1000 });
  try {
    await ensureGraphSchema(driver);
    await worker.start();
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench-graph', 'Bench') returning id`,
    );
    const [ws] = await database.rows<{ id: string }>(
      sql`insert into workspaces (organization_id, name) values (${org!.id}, 'Bench') returning id`,
    );
    const doc = generateModel({ elements: 100_000, seed: 42 });
    await database.db.transaction((tx) => replaceModel(database, tx, ws!.id, doc));
    const items = doc.elements.length + doc.relationships.length;

    section(`Graph: rebuild of ${doc.elements.length} elements + ${doc.relationships.length} relationships`);
    // Floor: the same element and relationship rows, bare UNWIND CREATEs in batches of the worker's size (20,000
    // rows: Neo4j's transaction memory limit refuses 100k nodes in one transaction, as a deployment's would).
    const rows = graphRows(doc);
    const nodes = [...rows.elements.values()].flat().map((r) => ({ id: r.id, props: r.props }));
    const inBatches = async <T>(all: T[], run: (batch: T[]) => Promise<void>) => {
      for (let i = 0; i < all.length; i += FLOOR_BATCH) await run(all.slice(i, i + FLOOR_BATCH));
    };
    const floorStart = performance.now();
    const eids = new Map<string, string>();
    await inBatches(nodes, async (batch) => {
      const created = await driver.executeQuery(
        "UNWIND $rows AS row CREATE (n:BenchFloor) SET n = row.props RETURN row.id AS id, elementId(n) AS eid",
        { rows: batch },
      );
      for (const r of created.records) eids.set(r.get("id") as string, r.get("eid") as string);
    });
    // Only relationships between two elements: one whose end is another relationship has no node here (the worker
    // writes it through the reified relationship's node), and a null end would make Neo4j scan every node.
    const edges = [...rows.relationships.values()]
      .flat()
      .map((r) => ({ s: eids.get(r.s), t: eids.get(r.t), props: r.props }))
      .filter((e) => e.s !== undefined && e.t !== undefined);
    await inBatches(edges, async (batch) => {
      await driver.executeQuery(
        "UNWIND $rows AS row MATCH (a) WHERE elementId(a) = row.s MATCH (b) WHERE elementId(b) = row.t CREATE (a)-[r:BENCH]->(b) SET r = row.props",
        { rows: batch },
      );
    });
    const floorMs = performance.now() - floorStart;
    await clearLabel(driver, "BenchFloor");

    const ctx = {
      database,
      userId: "bench",
      username: "bench",
      organizationId: org!.id,
      workspaceId: ws!.id,
      role: "owner" as const,
      platformAdmin: false,
    };
    const rebuildStart = performance.now();
    const answer = await requestRebuild({ ctx, input: undefined, graph: { driver, queue, rebuildWaitMs: 600_000 } });
    const rebuildMs = performance.now() - rebuildStart;
    if (answer.status !== 200) throw new Error(`rebuild did not finish: ${JSON.stringify(answer.job)}`);
    const rate = (ms: number) => Math.round(items / (ms / 1000));
    console.log(
      `      rebuild ${rate(rebuildMs)} items/s (elements + relationships), bare UNWIND CREATE floor ${rate(floorMs)} items/s, ratio ${(floorMs / rebuildMs).toFixed(2)}`,
    );
    report(
      "rebuild 100k + 200k through job, queue, worker, switch",
      rebuildMs,
      floorMs,
      ">= 0.7x floor throughput and < 30 s",
      floorMs / rebuildMs >= 0.7 && rebuildMs < 30_000,
    );

    section("Explore overhead over the bare Cypher (100k-element graph)");
    const parsed = await measure(
      () => printScoped(parseReadQuery(EXPLORE_QUERY), "W_00000000000000000000000000000000_A"),
      { iterations: 2000 },
    );
    console.log(`      parse + rewrite alone: median ${parsed.median.toFixed(3)} ms`);
    const graph = { driver, queue, rebuildWaitMs: 600_000 };
    // The floor: the very text explore runs (scoped to the workspace's current slot), sent as a careful integrator
    // would send it, in a read transaction of its own. explore adds parsing, the rewrite, the slot lookup, the
    // EXPLAIN round trip with its plan check, the query slot and the row mapping.
    const scoped = await (async () => {
      const session = driver.session({ defaultAccessMode: neo4j.session.READ });
      try {
        return (await session.executeRead((tx) => prepareScoped(tx, ws!.id, parseReadQuery(EXPLORE_QUERY), {}))).text;
      } finally {
        await session.close();
      }
    })();
    const [viaExplore, bare] = await interleaved(
      [
        () => explore({ ctx, input: { query: EXPLORE_QUERY }, graph }),
        () => driver.executeQuery(scoped, {}, { routing: neo4j.routing.READ }),
      ],
      { iterations: 300, warmup: 30 },
    );
    const added = viaExplore!.median - bare!.median;
    report(
      `explore, median (+${added.toFixed(2)} ms over the bare query)`,
      viaExplore!.median,
      bare!.median,
      "<= 5 ms added",
      added <= 5,
    );
  } finally {
    await worker.stop();
    await queue.close();
    await database.drop();
    await driver.close();
    await local?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
