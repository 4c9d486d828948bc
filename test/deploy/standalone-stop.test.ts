import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { generateModel, scopeLabel } from "@ams/model";
import { must } from "@ams/shared/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { createNatsQueue } from "../../packages/graph/src/queue-nats.ts";
import { startTestNeo4j, type TestNeo4j } from "../../packages/graph/test/support/neo4j.ts";
import { seedWorkspace } from "../../packages/graph/test/support/seed.ts";
import { createLocalUser } from "../../services/control/src/auth/create-user.ts";
import { freePort, type ServiceProcess, startProcess, waitFor } from "./support/processes.ts";

/**
 * SIGTERM to the standalone shape (services/control/src/main.ts: control + tenant + mcp + the graph worker in one
 * process) while its in-process worker rebuilds a large graph: it takes no new job, and the rebuild in hand either
 * finishes within the drain bound or, with the in-process queue (nothing would redeliver it), is put back to queued
 * and runs at the next start. A process killed outright leaves its job running: the next start takes it over once
 * its heartbeat is stale. With NATS_URL the job in hand is handed back to JetStream, as the graph-worker does. A tenant
 * process started without NATS_URL (behind a control gateway) runs its own worker and stops the same way.
 * PostgreSQL is the test server (so the test can seed a large model and read the job rows), DATA_DIR a temp folder.
 */
const main = fileURLToPath(new URL("../../services/control/src/main.ts", import.meta.url));
const tenantMain = fileURLToPath(new URL("../../services/tenant/src/main.ts", import.meta.url));
const JWT_SECRET = "standalone-stop-test-secret-0123456789abcdef";
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const ACK_WAIT_MS = 2000;
const ELEMENTS = 12_000;
let db: TestDatabase;
let n4j: TestNeo4j;
let dataDir: string;
const started: ServiceProcess[] = [];

beforeAll(async () => {
  [db, n4j] = await Promise.all([createTestDatabase("ams_standalone_stop"), startTestNeo4j()]);
  dataDir = mkdtempSync(join(tmpdir(), "ams-standalone-stop-"));
  chmodSync(dataDir, 0o777); // writable by the images' uid 1000 when the test runs as root
}, 300_000);
afterEach(async () => {
  for (const p of started.splice(0)) if (p.proc.exitCode === null) p.proc.kill("SIGKILL");
});
afterAll(async () => {
  await db?.drop();
  await n4j?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const count = async (label: string) =>
  Number(
    must((await n4j.driver.executeQuery(`MATCH (n:${label}) RETURN count(n) AS c`)).records[0], "the count").get("c"),
  );

type JobRow = { state: string; attempts: number; error: string | null; counts: { elements: number } | null };
const jobRow = async (id: string) =>
  must(
    (await db.rows<JobRow>(sql`select state, attempts, error, counts from graph_jobs where id = ${id}`))[0],
    `job ${id}`,
  );

/** An owner signed in to the standalone process with a large workspace and a small one, each with a rebuild to ask. */
async function setUp() {
  const id = `${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const big = await seedWorkspace(db, generateModel({ elements: ELEMENTS, seed: 17 }));
  const small = await seedWorkspace(db, generateModel({ elements: 50, seed: 3 }), big.orgId);
  const username = `architect${id}`;
  const user = await db.db.transaction((tx) =>
    createLocalUser(tx, {
      username,
      name: "Architect",
      email: `${username}@example.com`,
      emailVerified: true,
      password: "architect-password",
    }),
  );
  await db.rows(
    sql`insert into memberships (organization_id, user_id, role) values (${big.orgId}, ${user.id}, 'owner')`,
  );
  const nats = { url: NATS_URL, stream: `SASTOP_${id}`, subject: `test.sastop.${id}`, ackWaitMs: ACK_WAIT_MS };

  const processEnv = (drainMs: number) => ({
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    TENANT_JWT_SECRET: JWT_SECRET,
    NEO4J_URL: n4j.url,
    NEO4J_USER: n4j.user,
    NEO4J_PASSWORD: n4j.password,
    NEO4J_LOCAL: "false",
    GRAPH_ACK_WAIT_MS: String(ACK_WAIT_MS),
    GRAPH_REBUILD_WAIT_MS: "0",
    GRAPH_RETIRE_GRACE_MS: "100",
    GRAPH_BATCH_SIZE: "800",
    // The rebuild job asked here is the one a stop finds in hand, not a start-up build of the freshly seeded
    // workspaces (those are built when first used).
    GRAPH_BUILD_RECENT_HOURS: "0",
    SHUTDOWN_DRAIN_MS: String(drainMs),
    SHUTDOWN_CLOSE_MS: "10000",
  });
  /** The tenant alone, as the split shape runs it without NATS_URL: it runs the rebuilds on its in-process queue. */
  const startTenant = (port: number, drainMs: number) => {
    const p = startProcess("tenant", tenantMain, { ...processEnv(drainMs), TENANT_PORT: String(port) });
    started.push(p);
    return p;
  };
  /** Control: standalone, or with TENANT_URL in `extra` the gateway in front of a tenant process. */
  const start = async (drainMs: number, extra: Record<string, string> = {}) => {
    const port = await freePort();
    const p = startProcess("control", main, {
      ...processEnv(drainMs),
      PORT: String(port),
      DEMO_SEED: "false",
      ...extra,
    });
    started.push(p);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      "the standalone process to serve with the graph up",
      async () => {
        const res = await fetch(`${base}/api/health`);
        const body = (await res.json()) as { checks: Record<string, string> };
        return body.checks.graph === "up" && body.checks.queue === "up";
      },
      120_000,
    );
    const login = await fetch(`${base}/api/auth/local/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password: "architect-password" }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    const cookie = must(
      login.headers.getSetCookie().find((c) => c.startsWith("access_token=")),
      "the access token cookie",
    ).split(";")[0] as string;
    // A cookie-authenticated write carries the page's Origin, as a browser's does (the gateway's CSRF rule).
    const call = (method: string, path: string) =>
      fetch(`${base}${path}`, { method, headers: { cookie, origin: new URL(base).origin } });
    expect((await call("POST", `/api/organizations/${big.orgId}/activate`)).status).toBe(200);
    /** Asks for a rebuild of a workspace through the API: 202 with the job (the wait is 0). */
    const rebuild = async (workspaceId: string) => {
      expect((await call("POST", `/api/workspaces/${workspaceId}/activate`)).status).toBe(200);
      const res = await call("POST", "/api/export/neo4j");
      expect(res.status, await res.clone().text()).toBe(202);
      return ((await res.json()) as { id: string }).id;
    };
    return { p, rebuild };
  };

  /** Waits until part of the big graph is written, signals; resolves with the exit code and the seconds it took. */
  const stopMidJob = async (p: ServiceProcess, signal: "SIGTERM" | "SIGKILL", afterSignal?: () => Promise<unknown>) => {
    const label = scopeLabel(big.workspaceId, "A");
    await waitFor("the worker to write part of the graph", async () => (await count(label)) > 0, 120_000);
    const signalled = Date.now();
    p.proc.kill(signal);
    await afterSignal?.();
    const code = await p.exited;
    return { code, seconds: (Date.now() - signalled) / 1000 };
  };
  const settled = (jobId: string, timeoutMs = 240_000) =>
    waitFor(
      `job ${jobId} to finish`,
      async () => {
        const row = await jobRow(jobId);
        return row.state === "succeeded" || row.state === "failed" ? row : undefined;
      },
      timeoutMs,
    );
  const bigElements = () => count(`Element:${scopeLabel(big.workspaceId, "A")}`);
  return { big, small, nats, start, startTenant, stopMidJob, settled, bigElements };
}

test("in-process queue, SIGTERM with a short drain bound: the process exits in time, the rebuild and the queued one run at the next start", async () => {
  const { big, small, start, stopMidJob, settled, bigElements } = await setUp();
  const first = await start(300);
  const bigJob = await first.rebuild(big.workspaceId);
  // Queued behind the big one on the single in-process consumer; the stopping process must not start it.
  const smallJob = await first.rebuild(small.workspaceId);
  const { code, seconds } = await stopMidJob(first.p, "SIGTERM");
  // Exits by itself within drain + close bound (1: a rebuild was left unfinished), not by the hard-exit timer.
  expect({ code, log: first.p.raw() }).toEqual({ code: 1, log: expect.stringContaining("SIGTERM: draining") });
  expect(seconds).toBeLessThan(0.3 + 10);
  expect(first.p.raw()).toContain("it runs again at the next start");
  expect(first.p.raw()).not.toContain("shutdown did not finish in time");
  // Not left "running" for ever: put back to queued, saying why.
  expect(await jobRow(bigJob)).toMatchObject({
    state: "queued",
    attempts: 1,
    error: expect.stringMatching(/^interrupted: the process stopped/),
  });
  expect(await jobRow(smallJob)).toMatchObject({ state: "queued", attempts: 0 });

  const second = await start(5000);
  expect(await settled(bigJob)).toMatchObject({ state: "succeeded", attempts: 2, error: null });
  expect(await settled(smallJob)).toMatchObject({ state: "succeeded", attempts: 1 });
  expect(second.p.raw()).toContain("queued again 2 rebuild job(s)");
  // The half-written slot was cleared before the rewrite: nothing duplicated.
  expect(await bigElements()).toBe(ELEMENTS);
  expect(await second.p.stop()).toBe(0);
}, 600_000);

test("in-process queue, SIGTERM with time to spare: the rebuild in hand finishes and the process exits 0", async () => {
  const { big, start, stopMidJob, bigElements } = await setUp();
  const first = await start(120_000);
  const bigJob = await first.rebuild(big.workspaceId);
  const { code, seconds } = await stopMidJob(first.p, "SIGTERM");
  expect({ code, log: first.p.raw() }).toEqual({ code: 0, log: expect.stringContaining("SIGTERM: draining") });
  expect(seconds).toBeLessThan(120 + 10);
  expect(await jobRow(bigJob)).toMatchObject({ state: "succeeded", attempts: 1, counts: { elements: ELEMENTS } });
  expect(await bigElements()).toBe(ELEMENTS);
}, 600_000);

test("killed outright mid-rebuild: the job left running is taken over at the next start once its heartbeat is stale", async () => {
  const { big, start, stopMidJob, settled, bigElements } = await setUp();
  const first = await start(300);
  const bigJob = await first.rebuild(big.workspaceId);
  await stopMidJob(first.p, "SIGKILL");
  expect(await jobRow(bigJob)).toMatchObject({ state: "running", attempts: 1 });

  const second = await start(5000);
  expect(await settled(bigJob)).toMatchObject({ state: "succeeded", attempts: 2, counts: { elements: ELEMENTS } });
  expect(await bigElements()).toBe(ELEMENTS);
  expect(await second.p.stop()).toBe(0);
}, 600_000);

test("on NATS (NATS_URL set), SIGTERM with a short drain bound: handed back to JetStream and completed after a restart", async () => {
  const { big, nats, start, stopMidJob, settled, bigElements } = await setUp();
  const queue = await createNatsQueue(nats);
  try {
    const onNats = { NATS_URL, GRAPH_STREAM: nats.stream, GRAPH_SUBJECT: nats.subject };
    const first = await start(300, onNats);
    const bigJob = await first.rebuild(big.workspaceId);
    const { code, seconds } = await stopMidJob(first.p, "SIGTERM");
    expect(code).toBe(1);
    expect(seconds).toBeLessThan(0.3 + 10);
    expect(first.p.raw()).toContain("handed back for another worker");
    // JetStream redelivers it; the row stays running until its heartbeat is stale and a worker claims it.
    expect(await jobRow(bigJob)).toMatchObject({ state: "running", attempts: 1 });

    const second = await start(5000, onNats);
    expect(await settled(bigJob)).toMatchObject({ state: "succeeded", attempts: 2, counts: { elements: ELEMENTS } });
    expect(await bigElements()).toBe(ELEMENTS);
    expect(await second.p.stop()).toBe(0);
  } finally {
    await queue.close();
  }
}, 600_000);

test("a tenant process running its own worker (no NATS_URL), SIGTERM mid-rebuild: exits in time, the rebuild runs when it starts again", async () => {
  const { big, start, startTenant, stopMidJob, settled, bigElements } = await setUp();
  const tenantPort = await freePort();
  const tenant = startTenant(tenantPort, 300);
  const control = await start(5000, { TENANT_URL: `http://127.0.0.1:${tenantPort}` });
  const bigJob = await control.rebuild(big.workspaceId);
  const { code, seconds } = await stopMidJob(tenant, "SIGTERM");
  expect({ code, log: tenant.raw() }).toEqual({ code: 1, log: expect.stringContaining("SIGTERM: draining") });
  expect(seconds).toBeLessThan(0.3 + 10);
  expect(tenant.raw()).not.toContain("shutdown did not finish in time");
  expect(await jobRow(bigJob)).toMatchObject({ state: "queued", attempts: 1 });

  const again = startTenant(tenantPort, 5000);
  expect(await settled(bigJob)).toMatchObject({ state: "succeeded", attempts: 2, counts: { elements: ELEMENTS } });
  expect(await bigElements()).toBe(ELEMENTS);
  expect(await again.stop()).toBe(0);
  expect(await control.p.stop()).toBe(0);
}, 600_000);
