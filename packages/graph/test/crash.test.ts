import { spawn } from "node:child_process";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { generateModel, getRebuildJob, requestRebuild, scopeLabel } from "@ams/model";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createNatsQueue } from "../src/queue-nats.ts";
import { createGraphWorker } from "../src/worker.ts";
import { startTestNeo4j, type TestNeo4j } from "./support/neo4j.ts";
import { contextFor, seedWorkspace } from "./support/seed.ts";

const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
let db: TestDatabase;
let n4j: TestNeo4j;

beforeAll(async () => {
  [db, n4j] = await Promise.all([createTestDatabase("ams_graph_crash"), startTestNeo4j()]);
}, 300_000);
afterAll(async () => {
  await db?.drop();
  await n4j?.stop();
});

const count = async (label: string) =>
  Number((await n4j.driver.executeQuery(`MATCH (n:${label}) RETURN count(n) AS c`)).records[0]!.get("c"));

test("a worker killed mid-job: JetStream redelivers the job and a fresh worker completes it", async () => {
  const { orgId, workspaceId } = await seedWorkspace(db, generateModel({ elements: 40_000, seed: 11 }));
  const config = { url: NATS_URL, stream: `CRASH_${Date.now()}`, subject: `test.crash.${Date.now()}`, ackWaitMs: 2000 };
  const queue = await createNatsQueue(config);
  const ctx = contextFor(db, orgId, workspaceId);
  const queued = await requestRebuild({
    ctx,
    input: undefined,
    graph: { driver: n4j.driver, queue, rebuildWaitMs: 0 },
  });
  expect(queued.status).toBe(202);

  const child = spawn(process.execPath, [new URL("./support/worker-child.ts", import.meta.url).pathname], {
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      NEO4J_URL: n4j.url,
      NEO4J_USER: n4j.user,
      NEO4J_PASSWORD: n4j.password,
      NATS_URL,
      GRAPH_STREAM: config.stream,
      GRAPH_SUBJECT: config.subject,
      GRAPH_ACK_WAIT_MS: String(config.ackWaitMs),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((r) => child.once("exit", r));
  const label = scopeLabel(workspaceId, "A");
  // Kill it once it has written part of the graph.
  for (let i = 0; i < 600 && (await count(label)) === 0; i++) await new Promise((r) => setTimeout(r, 100));
  const partial = await count(label);
  child.kill("SIGKILL");
  await exited;
  expect(partial).toBeGreaterThan(0);
  const abandoned = await getRebuildJob({ ctx, input: { jobId: queued.job.id } });
  expect(abandoned).toMatchObject({ state: "running", attempts: 1 });

  const worker = createGraphWorker({ database: db, neo4j: n4j.driver, queue, staleMs: config.ackWaitMs, graceMs: 100 });
  await worker.start();
  try {
    let job = abandoned;
    for (let i = 0; i < 900 && job.state !== "succeeded" && job.state !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = await getRebuildJob({ ctx, input: { jobId: queued.job.id } });
    }
    expect(job).toMatchObject({ state: "succeeded", attempts: 2, generation: 1, counts: { elements: 40_000 } });
    // The half-written slot was cleared before the rewrite: nothing duplicated.
    expect(await count(`Element:${label}`)).toBe(40_000);
    expect(await count(scopeLabel(workspaceId, "B"))).toBe(0);
  } finally {
    await worker.stop();
    await queue.close();
  }
}, 240_000);
