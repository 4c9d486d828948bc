import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { createGraphWorker, createMemoryQueue, ensureGraphSchema, neo4j, startLocalNeo4j } from "@ams/graph";
import {
  elementByIdQuery,
  elementListQuery,
  generateModel,
  type ModelDocument,
  parseReadQuery,
  prepareScoped,
  readModel,
  replaceModel,
  serializeExchange,
} from "@ams/model";
import { createServiceTokens, silentLogger } from "@ams/shared";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "@ams/tenant";
import { serve } from "@hono/node-server";
import postgres from "postgres";
import { bareRenderSelects } from "./exchange/render-floor.ts";
import { interleave, load } from "./exchange/timing.ts";
import type { Stats } from "./lib.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";
/** One page of the list, as a client paging through the model asks for it. */
export const PAGE = 100;
/** A type every generated model has in the same proportion (generateModel cycles through the types). */
const FILTER_TYPE = "ApplicationComponent";
/**
 * A page of one type: generateModel spreads ~60 types evenly, so the 1k model holds 17 of each. Pages of 10 from the
 * start are full at every size; a page that is shorter at 1k would make the larger models look slower per page.
 */
const TYPED_PAGE = 10;
/** A neighbourhood lookup: its answer has the same size in every model, so its cost should not grow either. */
const EXPLORE_QUERY =
  "MATCH (a:Element {id: $id})-[r]-(b:Element) RETURN a.name AS name, type(r) AS rel, b.name AS other LIMIT 25";

/** Median (and p99) of one operation at one model size, beside its floor measured in the same rounds. */
export type Figure = { op: string; size: number; value: Stats; floor: Stats | null };
export type ModelScaling = {
  sizes: number[];
  seedMs: Record<number, number>;
  figures: Figure[];
  /** Whole-model work, one run each: ms for the size (median of the runs). */
  rebuildMs: Record<number, number>;
  exportMs: Record<number, number>;
  serializeMs: Record<number, number>;
  items: Record<number, number>;
  loadAverage: string;
};

/** A seeded workspace. The generated document itself is not kept: three models held in memory (the largest some
 * hundreds of MB of objects) put the process under GC pressure that slowed its export and serialization 3x. */
type Sized = { size: number; ws: string; items: number; headers: Record<string, string> };

/**
 * List, get, render, export and explore on workspaces of each size, all in one PostgreSQL database and one Neo4j,
 * through the tenant's real HTTP server. Every per-request figure is interleaved round by round with the same
 * operation at the other sizes and with its floor, so load on the shared machine weighs on all of them alike.
 */
export async function measureModelScaling(sizes: number[]): Promise<ModelScaling> {
  const dataDir = mkdtempSync(join(tmpdir(), "ams-bench-scale-neo4j-"));
  // Neo4j starts (a JVM, some 20 s) while the models are written.
  const neo4jStarting = startLocalNeo4j({ dataDir, heap: "2g", pageCache: "512m" });
  const database = await createTestDatabase("ams_bench_scale");
  const bare = postgres(database.url, { max: 2, onnotice: () => {} });
  const tokens = createServiceTokens(SECRET);
  const queue = createMemoryQueue();
  const local = await neo4jStarting.catch(async (err) => {
    await database.drop();
    throw err;
  });
  const driver = neo4j.driver(local.url, neo4j.auth.basic(local.user, local.password));
  const worker = createGraphWorker({ database, neo4j: driver, queue, graceMs: 1000 });
  const app = createTenantApp({
    database,
    tokens,
    log: silentLogger,
    graph: { driver, queue, rebuildWaitMs: 600_000 },
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  const listening = new Promise((r) => server.once("listening", r));
  const renew: NodeJS.Timeout[] = [];
  try {
    await ensureGraphSchema(driver);
    await worker.start();
    await listening;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench-scale', 'Scale') returning id`,
    );
    const seedMs: Record<number, number> = {};
    const models: Sized[] = [];
    for (const size of sizes) {
      const [ws] = await database.rows<{ id: string }>(
        sql`insert into workspaces (organization_id, name) values (${org!.id}, ${`Scale ${size}`}) returning id`,
      );
      const doc = withRelationshipProperties(generateModel({ elements: size, properties: true, seed: 42 }));
      const t = performance.now();
      await database.db.transaction((tx) => replaceModel(database, tx, ws!.id, doc));
      seedMs[size] = performance.now() - t;
      const claims = {
        userId: "bench",
        username: "bench",
        organizationId: org!.id,
        workspaceId: ws!.id,
        role: "owner" as const,
        platformAdmin: false,
        apiTokenId: null,
      };
      // Signed once and renewed within its lifetime: the figures are the tenant's work, not token signing.
      const headers = { [SERVICE_TOKEN_HEADER]: await tokens.sign(claims, "tenant") };
      renew.push(
        setInterval(async () => {
          headers[SERVICE_TOKEN_HEADER] = await tokens.sign(claims, "tenant");
        }, 10_000),
      );
      models.push({ size, ws: ws!.id, items: doc.elements.length + doc.relationships.length, headers });
      console.log(`      seeded ${describe(doc)} in ${(seedMs[size] / 1000).toFixed(1)} s`);
    }
    // A running deployment's autovacuum keeps statistics current; a database filled a second ago has none.
    await bare.unsafe("vacuum analyze");

    const request = (m: Sized, method: string, path: string) => async () => {
      const res = await fetch(base + path, { method, headers: m.headers });
      if (res.status !== 200) throw new Error(`${method} ${path} (${m.size}): ${res.status} ${await res.text()}`);
      return res.arrayBuffer();
    };
    const get = (m: Sized, path: string) => request(m, "GET", path);

    // ---- graph rebuild, whole model: a few runs at the small sizes, two at the largest (the second is the steady
    // state: it writes the other generation slot while the first stays readable).
    const rebuildMs: Record<number, number> = {};
    for (const m of models) {
      const runs = m.size >= 100_000 ? 2 : m.size >= 10_000 ? 3 : 5;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await request(m, "POST", "/api/export/neo4j")();
        times.push(performance.now() - t);
      }
      rebuildMs[m.size] = median(times);
      console.log(`      rebuilt the graph of ${m.size} elements: ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
    }

    const figures: Figure[] = [];
    const perSize = async (
      op: string,
      rounds: number,
      value: (m: Sized, round: () => number) => () => Promise<unknown>,
      floor: ((m: Sized, round: () => number) => () => Promise<unknown>) | null,
    ) => {
      const fns: Record<string, () => Promise<unknown>> = {};
      for (const m of models) {
        // Each operation walks its own sequence of ids, so the value and the floor ask for the same rows.
        let i = 0;
        let j = 0;
        fns[`v${m.size}`] = value(m, () => i++);
        if (floor) fns[`f${m.size}`] = floor(m, () => j++);
      }
      const stats = await interleave(fns, { rounds, warmup: Math.max(3, rounds / 10) });
      for (const m of models) {
        figures.push({ op, size: m.size, value: stats[`v${m.size}`]!, floor: floor ? stats[`f${m.size}`]! : null });
      }
    };
    const middle = (m: Sized) => `e-${Math.floor(m.size / 2)}`;
    // The same statement the verb runs, through the same pool, rows serialized: what a page costs without HTTP,
    // validation and the verb around it.
    const sqlFloor = (q: (m: Sized, k: number) => ReturnType<typeof sql>) => (m: Sized, next: () => number) => () =>
      database.rows(q(m, next())).then((rows) => JSON.stringify(rows));

    await perSize(
      "list page",
      300,
      (m) => get(m, `/api/elements?limit=${PAGE}&after=${middle(m)}`),
      sqlFloor((m) => elementListQuery(m.ws, { limit: PAGE, after: middle(m) })),
    );
    await perSize(
      "list page of one type",
      300,
      (m) => get(m, `/api/elements?limit=${TYPED_PAGE}&type=${FILTER_TYPE}&after=e-0`),
      sqlFloor((m) => elementListQuery(m.ws, { limit: TYPED_PAGE, type: FILTER_TYPE, after: "e-0" })),
    );
    const spread = (m: Sized, k: number) => `e-${(k * 7919) % m.size}`;
    await perSize(
      "get element",
      500,
      (m, next) => () => get(m, `/api/elements/${spread(m, next())}`)(),
      sqlFloor((m, k) => elementByIdQuery(m.ws, spread(m, k))),
    );
    await perSize(
      "relationships of an element",
      300,
      (m, next) => () => get(m, `/api/elements/${spread(m, next())}/relationships`)(),
      sqlFloor((m, k) => elementRelationshipsFloor(m.ws, spread(m, k))),
    );
    await perSize(
      "render view SVG",
      200,
      (m) => get(m, "/api/views/v-0/image"),
      (m) => bareRenderSelects(bare, m.ws, "v-0"),
    );

    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      // The floor is the same query as explore rewrites it (workspace label on every node pattern), run bare in a
      // READ transaction of the same driver: what is left is parsing, the slot lookup, EXPLAIN, the plan check, HTTP.
      const scoped = new Map<number, string>();
      for (const m of models) {
        const prepared = await session.executeRead((tx) =>
          prepareScoped(tx, m.ws, parseReadQuery(EXPLORE_QUERY), { id: "e-0" }),
        );
        scoped.set(m.size, prepared.text);
      }
      await perSize(
        "explore (neighbourhood)",
        200,
        (m, next) => async () => {
          const res = await fetch(`${base}/api/explore`, {
            method: "POST",
            headers: { ...m.headers, "content-type": "application/json" },
            body: JSON.stringify({ query: EXPLORE_QUERY, parameters: { id: spread(m, next()) } }),
          });
          if (res.status !== 200) throw new Error(`explore (${m.size}): ${res.status} ${await res.text()}`);
          return res.arrayBuffer();
        },
        (m, next) => () =>
          session.executeRead((tx) => tx.run(scoped.get(m.size)!, { id: spread(m, next()) })).then((r) => r.records),
      );
    } finally {
      await session.close();
    }

    // ---- export, whole model: interleaved with serializing the same model (the floor), per size.
    const exportMs: Record<number, number> = {};
    const serializeMs: Record<number, number> = {};
    const items: Record<number, number> = {};
    for (const m of models) {
      const stored = await readModel(database, m.ws);
      const rounds = m.size >= 100_000 ? 4 : m.size >= 10_000 ? 12 : 40;
      const stats = await interleave(
        { export: get(m, "/api/export"), serialize: async () => serializeExchange(stored) },
        { rounds, warmup: 1 },
      );
      exportMs[m.size] = stats.export!.median;
      serializeMs[m.size] = stats.serialize!.median;
      items[m.size] = m.items;
    }
    return { sizes, seedMs, figures, rebuildMs, exportMs, serializeMs, items, loadAverage: load() };
  } finally {
    for (const t of renew) clearInterval(t);
    server.close();
    await bare.end({ timeout: 5 });
    await worker.stop();
    await queue.close();
    await driver.close();
    await local.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The relationships touching one element, bare (no property values): the least that answer must read. */
const elementRelationshipsFloor = (ws: string, id: string) =>
  sql`select id, type, source_id, target_id, name, documentation from relationships
      where workspace_id = ${ws} and (source_id = ${id} or target_id = ${id}) order by ord`;

/** Every other relationship given a value of the model's first property definition, as real models have them. */
function withRelationshipProperties(doc: ModelDocument): ModelDocument {
  const definitionId = doc.propertyDefinitions[0]?.id;
  if (!definitionId) throw new Error("generateModel({ properties: true }) made no property definition");
  const values = doc.relationships
    .filter((_, i) => i % 2 === 0)
    .map((r) => ({ ownerKind: "relationship", ownerId: r.id, ord: 0, definitionId, value: `via ${r.id}`, i18n: null }));
  return { ...doc, properties: [...doc.properties, ...values] };
}

function describe(doc: ModelDocument) {
  return `${doc.elements.length} elements, ${doc.relationships.length} relationships, ${doc.views.length} views`;
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}
