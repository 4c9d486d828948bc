import { randomUUID } from "node:crypto";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { createGraphWorker, createMemoryQueue, ensureGraphSchema, syncWorkspace } from "@ams/graph";
import {
  createChangeFeed,
  generateModel,
  type RequestContext,
  readGraphMeta,
  replaceModel,
  scopeLabel,
  syncJob,
  updateElement,
} from "@ams/model";
import { startTestNeo4j } from "../packages/graph/test/support/neo4j.ts";
import { report, section, verdict } from "./lib.ts";

const GROUPS = 500;
const RATE = 50;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/**
 * Change to graph: 500 renames committed at 50 change groups per second through the model verb, each timed from its
 * commit to the sync transaction that brought the graph to its revision (woken by the change feed, as in a
 * deployment). Floor: the same renames as bare Cypher writes (one transaction each), timed the same way.
 */
export async function benchGraphSync() {
  const n4j = await startTestNeo4j();
  const database = await createTestDatabase("ams_bench_graph_sync");
  const queue = createMemoryQueue();
  const reached: { to: number; at: number }[] = [];
  /** How long each applying sync took inside the worker (read the log, write the graph), wake-up excluded. */
  const syncMs: number[] = [];
  const worker = createGraphWorker({
    database,
    neo4j: n4j.driver,
    queue,
    graceMs: 500,
    onSynced: (_ws, outcome, ms) => {
      if (outcome.kind === "applied") {
        reached.push({ to: outcome.to, at: performance.now() });
        syncMs.push(ms);
      }
    },
  });
  const feed = await createChangeFeed(database);
  try {
    await ensureGraphSchema(n4j.driver);
    const orgId = randomUUID();
    await database.rows(sql`insert into organizations (id, slug, name) values (${orgId}, 'bench-sync', 'Bench')`);
    const [ws] = await database.rows<{ id: string }>(
      sql`insert into workspaces (organization_id, name) values (${orgId}, 'Bench') returning id`,
    );
    const workspaceId = ws!.id;
    const doc = generateModel({ elements: 2000, seed: 26 });
    await database.db.transaction((tx) => replaceModel(database, tx, workspaceId, doc));
    await syncWorkspace({ database, neo4j: n4j.driver }, workspaceId);
    const [{ revision: base } = { revision: 0 }] = await database.rows<{ revision: number }>(
      sql`select revision::int as revision from workspaces where id = ${workspaceId}`,
    );
    feed.subscribe((w, revision) => void queue.enqueue(syncJob(w, { revision })));
    await worker.start();
    const ctx: RequestContext = {
      database,
      userId: "bench",
      username: "bench",
      organizationId: orgId,
      workspaceId,
      role: "owner",
      platformAdmin: false,
    };
    const ids = doc.elements.slice(0, GROUPS).map((e) => e.id);
    const committed: number[] = [];
    const started = performance.now();
    for (let i = 0; i < GROUPS; i++) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await updateElement({ ctx, input: { id: ids[i]!, name: `Renamed ${i}` } });
      committed.push(performance.now());
    }
    const target = base + GROUPS;
    const deadline = performance.now() + 60_000;
    while ((reached.at(-1)?.to ?? 0) < target && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    const latencies = committed.map((at, i) => {
      const hit = reached.find((r) => r.to >= base + i + 1);
      return hit ? hit.at - at : Number.POSITIVE_INFINITY;
    });

    // Floor: the same renames as bare Cypher writes into the same graph, at the same rate.
    const session = n4j.driver.session();
    const meta = await readGraphMeta(session, workspaceId);
    await session.close();
    const S = scopeLabel(workspaceId, meta!.slot);
    const bare: number[] = [];
    const floorStart = performance.now();
    for (let i = 0; i < GROUPS; i++) {
      const due = floorStart + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const t0 = performance.now();
      await n4j.driver.executeQuery(`MATCH (n:Element {id: $id}) WHERE n:${S} SET n.name = $name`, {
        id: ids[i],
        name: `Bare ${i}`,
      });
      bare.push(performance.now() - t0);
    }
    section(`Graph sync: ${GROUPS} renames at ${RATE} change groups/s on a ${doc.elements.length}-element model`);
    const p50 = pct(latencies, 0.5);
    const p99 = pct(latencies, 0.99);
    const floor50 = pct(bare, 0.5);
    report("change to graph p50", p50, floor50, "<= 300 ms", p50 <= 300);
    verdict(
      "change to graph p50 beside the bare write",
      `change to graph p50 is ${(p50 / floor50).toFixed(1)}x the bare Cypher write of the same change (target <= 2x)`,
      p50 <= 2 * floor50,
    );
    report("change to graph p99", p99, pct(bare, 0.99), "<= 2000 ms", p99 <= 2000);
    console.log(`      sync transactions: ${reached.length} for ${GROUPS} change groups (wake-ups coalesce)`);
    console.log(
      `      inside the worker (log read + graph write): p50 ${pct(syncMs, 0.5).toFixed(1)} ms, p99 ${pct(syncMs, 0.99).toFixed(1)} ms; the rest is the wake-up (change feed, queue)`,
    );
  } finally {
    await feed.close();
    await worker.stop();
    await queue.close();
    await database.drop();
    await n4j.stop();
  }
}
