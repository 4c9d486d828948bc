import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { generateModel, getRebuildJob, parseReadQuery, requestRebuild, runScopedQuery } from "@ams/model";
import { memoryLogger } from "@ams/shared";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type BackgroundGraph, startGraphInBackground } from "../src/background.ts";
import { contextFor, seedWorkspace } from "./support/seed.ts";

/**
 * The standalone shape's own local Neo4j, really started, really killed with SIGKILL: the service notices at once,
 * answers 503 within a second, restarts Neo4j by itself and runs the rebuild that was asked for meanwhile.
 */
let db: TestDatabase;
let dataDir: string;
let graph: BackgroundGraph;
const log = memoryLogger("graph");
const lines = () => log.records.map((r) => r.msg);

beforeAll(async () => {
  db = await createTestDatabase("ams_supervise");
  dataDir = mkdtempSync(join(tmpdir(), "ams-supervised-neo4j-"));
  graph = startGraphInBackground({
    database: db,
    worker: true,
    env: { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME, DATA_DIR: dataDir, GRAPH_RETIRE_GRACE_MS: "500" },
    log,
  });
  await graph.ready;
  if (!graph.handle.get()) throw new Error(`the local Neo4j did not start: ${lines().join("\n")}`);
}, 300_000);

afterAll(async () => {
  await graph?.close();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The JVM of this test's Neo4j (found by its data directory on the command line). */
function neo4jPid(): number {
  const out = execFileSync("pgrep", ["-f", "--", `java.*${join(dataDir, "neo4j")}`], { encoding: "utf8" }).trim();
  const pid = Number(out.split("\n")[0]);
  if (!pid) throw new Error(`no Neo4j process for ${dataDir}`);
  return pid;
}

test("kill -9 of the local Neo4j: 503 in under a second, restarted and healthy again, the queued rebuild runs", async () => {
  const deps = graph.handle.get()!;
  const seeded = await seedWorkspace(db, generateModel({ elements: 50, views: 1 }));
  const ctx = contextFor(db, seeded.orgId, seeded.workspaceId);
  expect((await requestRebuild({ ctx, input: undefined, graph: deps })).status).toBe(200);
  const query = () => runScopedQuery(deps, seeded.workspaceId, parseReadQuery("MATCH (n:Element) RETURN count(n)"), {});
  expect((await query()).rows[0]?.[0]).toBe(50);

  process.kill(neo4jPid(), "SIGKILL");
  await new Promise((r) => setTimeout(r, 200));
  const started = Date.now();
  await expect(query()).rejects.toMatchObject({ code: "UNAVAILABLE" });
  expect(Date.now() - started).toBeLessThan(1_000);
  await expect(graph.health.graph!()).rejects.toThrow(/stopped \(killed by SIGKILL\) and is being restarted/);

  // Asked for while Neo4j is down: queued, not failed.
  const rebuild = await requestRebuild({ ctx, input: undefined, graph: { ...deps, rebuildWaitMs: 0 } });
  expect(rebuild.status).toBe(202);
  const jobId = (rebuild.job as { id: string }).id;

  const deadline = Date.now() + 120_000;
  while (graph.handle.get()?.down?.() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  expect(graph.handle.get()?.down?.()).toBeUndefined();
  await graph.health.graph!();
  expect(lines().some((l) => /the local Neo4j is back \(restart 1\)/.test(l))).toBe(true);
  expect((await query()).rows[0]?.[0]).toBe(50);
  while (Date.now() < deadline) {
    const job = await getRebuildJob({ ctx, input: { jobId } });
    if (job.state === "succeeded" || job.state === "failed") break;
    await new Promise((r) => setTimeout(r, 250));
  }
  expect((await getRebuildJob({ ctx, input: { jobId } })).state).toBe("succeeded");
}, 240_000);
