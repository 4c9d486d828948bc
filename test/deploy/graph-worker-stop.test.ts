import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { generateModel, getRebuildJob, requestRebuild, scopeLabel } from "@ams/model";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { createNatsQueue } from "../../packages/graph/src/queue-nats.ts";
import { startTestNeo4j, type TestNeo4j } from "../../packages/graph/test/support/neo4j.ts";
import { contextFor, seedWorkspace } from "../../packages/graph/test/support/seed.ts";
import { freePort, type ServiceProcess, startProcess, waitFor } from "./support/processes.ts";

/**
 * SIGTERM to the graph-worker process (services/graph-worker/src/main.ts, as the image runs it) while it rebuilds a
 * graph: it pulls no new job, finishes the job in hand within the drain bound or hands it back to JetStream, drains
 * NATS and exits by itself within drain + close bound. Either way the job completes.
 */
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const main = fileURLToPath(new URL("../../services/graph-worker/src/main.ts", import.meta.url));
const ACK_WAIT_MS = 2000;
let db: TestDatabase;
let n4j: TestNeo4j;
const started: ServiceProcess[] = [];

beforeAll(async () => {
  [db, n4j] = await Promise.all([createTestDatabase("ams_worker_stop"), startTestNeo4j()]);
}, 300_000);
afterEach(async () => {
  for (const p of started.splice(0)) if (p.proc.exitCode === null) p.proc.kill("SIGKILL");
});
afterAll(async () => {
  await db?.drop();
  await n4j?.stop();
});

const count = async (label: string) =>
  Number((await n4j.driver.executeQuery(`MATCH (n:${label}) RETURN count(n) AS c`)).records[0]!.get("c"));

async function setUp(elements: number) {
  const id = `${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const nats = { url: NATS_URL, stream: `STOP_${id}`, subject: `test.stop.${id}`, ackWaitMs: ACK_WAIT_MS };
  const queue = await createNatsQueue(nats);
  const rebuild = async (model: ReturnType<typeof generateModel>) => {
    const { orgId, workspaceId } = await seedWorkspace(db, model);
    const ctx = contextFor(db, orgId, workspaceId);
    const queued = await requestRebuild({
      ctx,
      input: undefined,
      graph: { driver: n4j.driver, queue, rebuildWaitMs: 0 },
    });
    expect(queued.status).toBe(202);
    return { workspaceId, job: () => getRebuildJob({ ctx, input: { jobId: queued.job.id } }) };
  };
  const big = await rebuild(generateModel({ elements, seed: 17 }));
  const worker = async (drainMs: number) => {
    const p = startProcess("graph-worker", main, {
      DATABASE_URL: db.url,
      NATS_URL,
      NEO4J_URL: n4j.url,
      NEO4J_USER: n4j.user,
      NEO4J_PASSWORD: n4j.password,
      NEO4J_LOCAL: "false",
      GRAPH_STREAM: nats.stream,
      GRAPH_SUBJECT: nats.subject,
      GRAPH_ACK_WAIT_MS: String(ACK_WAIT_MS),
      GRAPH_RETIRE_GRACE_MS: "100",
      GRAPH_BATCH_SIZE: "2000",
      // The jobs are what is tested here: the sync's start-up build and sweep (which build a graph never built, job
      // or not) are kept out of the way, so the generation a job reports is its own.
      GRAPH_BUILD_RECENT_HOURS: "0",
      GRAPH_SYNC_SWEEP_MS: "600000",
      GRAPH_WORKER_PORT: String(await freePort()),
      HOST: "127.0.0.1",
      SHUTDOWN_DRAIN_MS: String(drainMs),
      SHUTDOWN_CLOSE_MS: "10000",
    });
    started.push(p);
    return p;
  };
  return { queue, rebuild, big, worker };
}

/** SIGTERM once the worker has written part of the new graph; resolves with the exit code and the seconds it took. */
async function terminateMidJob(p: ServiceProcess, workspaceId: string, afterSignal?: () => Promise<unknown>) {
  const label = scopeLabel(workspaceId, "A");
  await waitFor("the worker to write part of the graph", async () => (await count(label)) > 0, 120_000);
  const signalled = Date.now();
  p.proc.kill("SIGTERM");
  await afterSignal?.();
  const code = await p.exited;
  return { code, seconds: (Date.now() - signalled) / 1000 };
}

test("SIGTERM with time to spare: the worker finishes the job in hand, pulls no other, and exits 0", async () => {
  const { queue, rebuild, big, worker } = await setUp(30_000);
  try {
    const p = await worker(120_000);
    let next: Awaited<ReturnType<typeof rebuild>> | undefined;
    // Queued while the worker is stopping (another workspace, so nothing else keeps it from running it).
    const { code, seconds } = await terminateMidJob(p, big.workspaceId, async () => {
      next = await rebuild(generateModel({ elements: 50, seed: 3 }));
    });
    expect(await big.job()).toMatchObject({ state: "succeeded", attempts: 1, counts: { elements: 30_000 } });
    expect({ code, log: p.raw() }).toEqual({ code: 0, log: expect.stringContaining("SIGTERM: draining") });
    expect(seconds).toBeLessThan(120 + 10);
    expect(await count(`Element:${scopeLabel(big.workspaceId, "A")}`)).toBe(30_000);

    // The stopping worker did not take the next job: it waits, untouched, for the next worker.
    expect(await next!.job()).toMatchObject({ state: "queued", attempts: 0 });
    const successor = await worker(5_000);
    await waitFor("the next worker to run the queued job", async () => (await next!.job()).state === "succeeded");
    await successor.stop();
  } finally {
    await queue.close();
  }
}, 400_000);

test("SIGTERM with a drain bound shorter than the job: handed back, the worker exits in time, a new worker completes it", async () => {
  const { queue, big, worker } = await setUp(30_000);
  try {
    const p = await worker(300);
    const { code, seconds } = await terminateMidJob(p, big.workspaceId);
    // Exits by itself within drain + close bound (exit 1: a job was handed back unfinished), not by the hard timeout.
    expect(code).toBe(1);
    expect(seconds).toBeLessThan(0.3 + 10);
    expect(p.raw()).toContain("handed back for another worker");
    expect(p.raw()).not.toContain("shutdown did not finish in time");
    const handedBack = await big.job();
    expect(handedBack).toMatchObject({ state: "running", attempts: 1 });

    const successor = await worker(5_000);
    const done = await waitFor(
      "a new worker to complete the handed-back job",
      async () => {
        const job = await big.job();
        return job.state === "succeeded" || job.state === "failed" ? job : undefined;
      },
      240_000,
    );
    expect(done).toMatchObject({ state: "succeeded", attempts: 2, generation: 1, counts: { elements: 30_000 } });
    // The half-written slot was cleared before the rewrite: nothing duplicated.
    expect(await count(`Element:${scopeLabel(big.workspaceId, "A")}`)).toBe(30_000);
    await successor.stop();
  } finally {
    await queue.close();
  }
}, 400_000);
