import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { clearListMemory, generateModel, replaceModel } from "@ams/model";
import { createServiceTokens, silentLogger } from "@ams/shared";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "@ams/tenant";
import { serve } from "@hono/node-server";
import postgres from "postgres";
import { interleaved, measure, report, type Stats, section, statsOf } from "./lib.ts";

/** Issue 2: the model REST API on real PostgreSQL, through real HTTP, beside bare postgres.js + JSON. */
export async function benchModelApi() {
  const database = await createTestDatabase("ams_bench");
  const tokens = createServiceTokens("bench-secret-bench-secret-bench-secret!!");
  const app = createTenantApp({ database, tokens, log: silentLogger });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => server.once("listening", r));
  const port = (server.address() as { port: number }).port;
  const bare = postgres(database.url, { max: 4, onnotice: () => {} });
  try {
    const [org] = await database.rows<{ id: string }>(
      sql`insert into organizations (slug, name) values ('bench', 'Bench') returning id`,
    );
    const [ws] = await database.rows<{ id: string }>(
      sql`insert into workspaces (organization_id, name) values (${org!.id}, 'Bench') returning id`,
    );
    const claims = {
      userId: "bench",
      username: "bench",
      organizationId: org!.id,
      workspaceId: ws!.id,
      role: "owner" as const,
      platformAdmin: false,
      apiTokenId: null,
    };
    // The gateway signs one token per request; here one token is reused (re-signed before it expires) so the
    // figures are the tenant's own work, as the floor is the database's.
    let token = { value: await tokens.sign(claims, "tenant"), at: Date.now() };
    const headers = async () => {
      if (Date.now() - token.at > 10_000) token = { value: await tokens.sign(claims, "tenant"), at: Date.now() };
      return { [SERVICE_TOKEN_HEADER]: token.value, "content-type": "application/json" };
    };
    const base = `http://127.0.0.1:${port}`;
    const get = async (path: string) => {
      const res = await fetch(base + path, { headers: await headers() });
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      // The whole body received; decoding it into a string is the client's business, not the server's figure.
      return res.arrayBuffer();
    };
    const load = async (n: number) =>
      database.db.transaction((tx) => replaceModel(database, tx, ws!.id, generateModel({ elements: n, views: 1 })));
    const selectAll = async () => {
      const rows =
        await bare`select id, type, name, documentation from elements where workspace_id = ${ws!.id} order by ord`;
      return JSON.stringify(rows);
    };

    section("Model API: 565 elements (the ArchiMetal-sized model)");
    await load(565);
    // Interleaved round by round, so load on a shared machine hits the figure and its floor alike. The list as read
    // after a change (the memory of lists per workspace revision forgotten first, as a write would make it), then as
    // an unchanged workspace answers it.
    const fresh = () => {
      clearListMemory();
      return get("/api/elements");
    };
    const [list565, floor565, remembered565] = (await interleaved([fresh, selectAll, () => get("/api/elements")], {
      iterations: 300,
      warmup: 20,
    })) as [Stats, Stats, Stats];
    report(
      "GET /api/elements, 565 elements, median",
      list565.median,
      floor565.median,
      "<= 3 ms (reference: 10 ms)",
      list565.median <= 3,
    );
    report("GET /api/elements, 565 elements, p99", list565.p99, floor565.p99, "(informational)", true);
    report(
      "GET /api/elements, 565 elements, unchanged workspace (from memory), median",
      remembered565.median,
      floor565.median,
      "(informational)",
      true,
    );

    section("Model API: 100k elements");
    const t0 = performance.now();
    await load(100_000);
    console.log(`      loaded 100k elements + ~200k relationships in ${(performance.now() - t0).toFixed(0)} ms`);
    // PostgreSQL's statistics as autovacuum leaves them after a bulk load (a database created a minute ago has none).
    await bare`analyze elements`;
    // By id, interleaved with its floor, before the listings below: their 25 answers of 100k elements are parsed in
    // this same process (the client's garbage, not the server's), and collecting it would land in this tail.
    let i = 0;
    const nextId = () => `e-${(i++ * 7919) % 100_000}`;
    const [getOne, floorOne] = (await interleaved(
      [
        () => get(`/api/elements/${nextId()}`),
        async () => {
          const rows =
            await bare`select id, type, name, documentation from elements where workspace_id = ${ws!.id} and id = ${nextId()}`;
          return JSON.stringify(rows[0]);
        },
      ],
      { iterations: 1000, warmup: 100 },
    )) as [Stats, Stats];
    report("GET /api/elements/:id, median", getOne.median, floorOne.median, "(informational)", true);
    report("GET /api/elements/:id, p99", getOne.p99, floorOne.p99, "<= 5 ms", getOne.p99 <= 5);

    const [listAll, floorAll] = (await interleaved([fresh, selectAll], {
      iterations: 25,
      warmup: 3,
    })) as [Stats, Stats];
    report(
      "GET /api/elements, 100k elements, median",
      listAll.median,
      floorAll.median,
      "<= 1.3 x floor",
      listAll.median <= 1.3 * floorAll.median,
    );
    report("GET /api/elements, 100k elements, p99", listAll.p99, floorAll.p99, "(informational)", true);

    // The whole relationship list of the same model (~200k), beside the bare read of its columns + JSON.
    const freshRelationships = () => {
      clearListMemory();
      return get("/api/relationships");
    };
    const selectRelationships = async () => {
      const rows = await bare`select id, type, source_id, target_id, name, documentation from relationships
        where workspace_id = ${ws!.id} order by ord`;
      return JSON.stringify(rows);
    };
    const [relAll, relFloor] = (await interleaved([freshRelationships, selectRelationships], {
      iterations: 15,
      warmup: 2,
    })) as [Stats, Stats];
    report("GET /api/relationships, ~200k, median", relAll.median, relFloor.median, "(informational)", true);

    const create = await measure(
      async () => {
        const res = await fetch(`${base}/api/elements`, {
          method: "POST",
          headers: await headers(),
          body: JSON.stringify({ name: "New", type: "Node" }),
        });
        if (res.status !== 201) throw new Error(`create: ${res.status}`);
        return res.text();
      },
      { iterations: 300 },
    );
    let k = 0;
    const floorCreate = await measure(
      async () => {
        // The bare insert, unrecorded (change capture off): the floor has no change log.
        const rows = await bare.begin(async (t) => {
          await t`select set_config('ams.capture', 'off', true)`;
          return t`insert into elements (workspace_id, id, ord, type, name) values (${ws!.id}, ${`bare-${k}`}, ${1_000_000 + k++}, 'Node', 'New')
            returning id, type, name, documentation`;
        });
        return JSON.stringify(rows[0]);
      },
      { iterations: 300 },
    );
    report("POST /api/elements, median", create.median, floorCreate.median, "(informational)", true);
    report("POST /api/elements, p99", create.p99, floorCreate.p99, "(informational)", true);

    // A single relationship write with the endpoint triggers (lock both ends, check them) and without.
    const [first, second] = await database.rows<{ id: string }>(
      sql`select id from elements where workspace_id = ${ws!.id} order by ord limit 2`,
    );
    const createRelationship = async () => {
      const res = await fetch(`${base}/api/relationships`, {
        method: "POST",
        headers: await headers(),
        body: JSON.stringify({ type: "Association", source: first!.id, target: second!.id }),
      });
      if (res.status !== 201) throw new Error(`create relationship: ${res.status}`);
      return res.text();
    };
    // Only the endpoint triggers: the change log's capture and the revision stamp stay on in both, as in production
    // (disabling every user trigger also took the capture out of the floor, which then measured the log too).
    const setTriggers = (on: boolean) =>
      bare.unsafe(
        ["relationships_endpoints_on_insert", "relationships_endpoints_on_update"]
          .map((t) => `alter table relationships ${on ? "enable" : "disable"} trigger ${t}`)
          .join("; "),
      );
    // Alternating blocks (turning the triggers off and on invalidates the table's cached plans, so each block starts
    // with a few unmeasured writes), so that the machine's load and the growing table weigh on both alike.
    const blocks = { with: [] as number[], without: [] as number[] };
    try {
      for (let block = 0; block < 12; block++) {
        const on = block % 2 === 0;
        await setTriggers(on);
        for (let i = 0; i < 55; i++) {
          const t = performance.now();
          await createRelationship();
          if (i >= 5) (on ? blocks.with : blocks.without).push(performance.now() - t);
        }
      }
    } finally {
      await setTriggers(true);
    }
    const withTriggers = statsOf(blocks.with);
    const withoutTriggers = statsOf(blocks.without);
    report(
      "POST /api/relationships with vs without endpoint triggers, median",
      withTriggers.median,
      withoutTriggers.median,
      "<= without + 0.2 ms",
      withTriggers.median <= withoutTriggers.median + 0.2,
    );
  } finally {
    await bare.end({ timeout: 5 });
    server.close();
    await database.drop();
  }
}
