import { type Database, openDatabase, sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { createServiceMetrics, metricsResponse, registerDatabaseMetrics, runtimeSettings } from "@ams/shared/http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parsePrometheusText, type Sample } from "./support/prometheus.ts";

/** The database pool as an operator sizes it (DB_POOL_MAX) and watches it (GET /metrics), on a real PostgreSQL. */
let db: TestDatabase;
const opened: Database[] = [];
beforeAll(async () => {
  db = await createTestDatabase("ams_pool_metrics");
}, 60_000);
afterAll(async () => {
  for (const d of opened) await d.close();
  await db?.drop();
});

async function pool(size: number) {
  const { DB_POOL_MAX } = runtimeSettings({ DB_POOL_MAX: String(size) });
  const database = await openDatabase({
    url: db.url,
    migrate: false,
    maxConnections: DB_POOL_MAX,
    applicationName: "t",
  });
  opened.push(database);
  const metrics = createServiceMetrics("tenant", { processMetrics: false });
  registerDatabaseMetrics(metrics, database);
  const scrape = async () => {
    const res = await metricsResponse(metrics);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    return parsePrometheusText(await res.text());
  };
  return { database, scrape };
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

/** Holds `count` transactions open on the pool (each has run a statement) until release() is called. */
async function holdTransactions(database: Database, count: number) {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let begun = 0;
  const all = Array.from({ length: count }, () =>
    database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      begun++;
      await gate;
    }),
  );
  while (begun < count) await new Promise((r) => setTimeout(r, 10));
  return async () => {
    release();
    await Promise.all(all);
  };
}

describe("DB_POOL_MAX", () => {
  test("defaults to 10 and refuses a value that is no pool size, naming it", () => {
    expect(runtimeSettings({}).DB_POOL_MAX).toBe(10);
    expect(runtimeSettings({ DB_POOL_MAX: "40" }).DB_POOL_MAX).toBe(40);
    for (const bad of ["0", "ten", "2.5", "-1"])
      expect(() => runtimeSettings({ DB_POOL_MAX: bad })).toThrow(/DB_POOL_MAX/);
  });
});

describe("/metrics shows the database pool", () => {
  test("its size, and its connections in use and idle as PostgreSQL counts them", async () => {
    const { database, scrape } = await pool(3);
    const release = await holdTransactions(database, 2);
    const busy = await scrape();
    expect(value(busy, "archimate_db_up")).toBe(1);
    expect(value(busy, "archimate_db_pool_max_connections")).toBe(3);
    expect(value(busy, "archimate_db_pool_connections", { state: "in_use" })).toBe(2);
    // The third connection answered the scrape: free again at once, so idle.
    expect(value(busy, "archimate_db_pool_connections", { state: "idle" })).toBe(1);
    expect(value(busy, "archimate_db_ping_seconds")).toBeGreaterThan(0);

    await release();
    const quiet = await scrape();
    expect(value(quiet, "archimate_db_pool_connections", { state: "in_use" })).toBe(0);
    expect(value(quiet, "archimate_db_pool_connections", { state: "idle" })).toBe(3);
  });

  test("another pool on the same database (another process, another replica) is not counted", async () => {
    const mine = await pool(2);
    const other = await pool(4);
    const release = await holdTransactions(other.database, 3);
    try {
      const samples = await mine.scrape();
      expect(value(samples, "archimate_db_pool_connections", { state: "in_use" })).toBe(0);
      expect(value(await other.scrape(), "archimate_db_pool_connections", { state: "in_use" })).toBe(3);
    } finally {
      await release();
    }
  });

  test("a database that does not answer: up 0, and no pool figures rather than stale ones", async () => {
    const { database, scrape } = await pool(2);
    expect(value(await scrape(), "archimate_db_pool_connections", { state: "idle" })).toBeGreaterThan(0);
    await database.close();
    const down = await scrape();
    expect(value(down, "archimate_db_up")).toBe(0);
    expect(down.filter((s) => s.name === "archimate_db_pool_connections")).toEqual([]);
  });

  test("the embedded PGlite database has no pool: size 1 and no connection figures", async () => {
    const embedded = await openDatabase({ dataDir: "memory://" });
    opened.push(embedded);
    const metrics = createServiceMetrics("control", { processMetrics: false });
    registerDatabaseMetrics(metrics, embedded);
    const samples = parsePrometheusText(await (await metricsResponse(metrics)).text());
    expect(value(samples, "archimate_db_up")).toBe(1);
    expect(value(samples, "archimate_db_pool_max_connections")).toBe(1);
    expect(samples.filter((s) => s.name === "archimate_db_pool_connections")).toEqual([]);
  });
});
