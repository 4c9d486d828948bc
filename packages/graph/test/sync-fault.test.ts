import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import {
  createElement,
  type GraphDeps,
  generateModel,
  parseReadQuery,
  runScopedQuery,
  updateElement,
} from "@ams/model";
import { memoryLogger } from "@ams/shared";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type BackgroundGraph, startGraphInBackground } from "../src/background.ts";
import { contextFor, seedWorkspace } from "./support/seed.ts";

/**
 * The standalone process's graph side with jobs on NATS JetStream and its own local Neo4j, which is killed with
 * SIGKILL while 200 writes go on: every write succeeds (PostgreSQL alone takes them), and once the supervisor has
 * Neo4j back the graph catches up from the change log: every change in it, none twice.
 */
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
let db: TestDatabase;
let dataDir: string;
let graph: BackgroundGraph;
const log = memoryLogger("graph");

beforeAll(async () => {
  db = await createTestDatabase("ams_sync_fault");
  dataDir = mkdtempSync(join(tmpdir(), "ams-sync-fault-neo4j-"));
  const unique = Math.random().toString(36).slice(2, 10);
  graph = startGraphInBackground({
    database: db,
    worker: true,
    env: {
      PATH: process.env.PATH,
      JAVA_HOME: process.env.JAVA_HOME,
      DATA_DIR: dataDir,
      NATS_URL,
      GRAPH_STREAM: `SYNC_FAULT_${unique}`,
      GRAPH_SUBJECT: `test.sync.${unique}`,
      GRAPH_RETIRE_GRACE_MS: "500",
      GRAPH_SYNC_SWEEP_MS: "1000",
    },
    log,
  });
  await graph.ready;
  if (!graph.handle.get())
    throw new Error(`the local Neo4j did not start: ${log.records.map((r) => r.msg).join("\n")}`);
}, 300_000);

afterAll(async () => {
  await graph?.close();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

function neo4jPid(): number {
  const out = execFileSync("pgrep", ["-f", "--", `java.*${join(dataDir, "neo4j")}`], { encoding: "utf8" }).trim();
  const pid = Number(out.split("\n")[0]);
  if (!pid) throw new Error(`no Neo4j process for ${dataDir}`);
  return pid;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("kill -9 of Neo4j during 200 writes: every write succeeds, and afterwards every change is in the graph once", async () => {
  const deps = (): GraphDeps => graph.handle.get()!;
  const { orgId, workspaceId: ws } = await seedWorkspace(db, generateModel({ elements: 50, views: 1, seed: 8 }));
  const ctx = contextFor(db, orgId, ws);
  const ask = (cypher: string) => runScopedQuery(deps(), ws, parseReadQuery(cypher), {}, () => {}, db);

  // Built on first use: the first question starts the build and is told how far it is.
  await expect(ask("MATCH (n:Element) RETURN count(n)")).rejects.toThrow(/^Building the graph of this workspace/);
  let first = await ask("MATCH (n:Element) RETURN count(n)").catch(() => null);
  for (let i = 0; i < 300 && !first; i++) {
    await sleep(100);
    first = await ask("MATCH (n:Element) RETURN count(n)").catch(() => null);
  }
  expect(first?.rows).toEqual([[50]]);

  // 200 writes: 150 elements created, 50 of them renamed; Neo4j is killed after the 60th.
  const expected = new Map<string, string>();
  let killedAt = -1;
  for (let i = 0; i < 200; i++) {
    if (i === 60) {
      process.kill(neo4jPid(), "SIGKILL");
      killedAt = i;
    }
    if (i % 4 === 3) {
      const [id] = [...expected.keys()].slice(-1);
      const name = `${expected.get(id!)} renamed`;
      await updateElement({ ctx, input: { id: id!, name } });
      expected.set(id!, name);
    } else {
      const made = await createElement({ ctx, input: { name: `Write ${i}`, type: "ApplicationComponent" } });
      expected.set(made.id, made.name);
    }
  }
  expect(killedAt).toBe(60);
  expect(expected.size).toBe(150);

  // Neo4j back (restarted by the supervisor), then the graph catches up by itself: no rebuild asked.
  const deadline = Date.now() + 180_000;
  let behind = Number.POSITIVE_INFINITY;
  while (Date.now() < deadline) {
    const answer = await ask("RETURN 1").catch(() => null);
    behind = answer?.graph?.behind ?? behind;
    if (answer && behind === 0) break;
    await sleep(250);
  }
  expect(behind).toBe(0);
  expect(log.records.some((r) => /the local Neo4j is back/.test(r.msg))).toBe(true);

  const written = await ask(
    "MATCH (n:ApplicationComponent) WHERE n.name STARTS WITH 'Write ' RETURN n.id AS id, n.name AS name",
  );
  const inGraph = new Map(written.rows.map(([id, name]) => [String(id), String(name)]));
  expect(written.rows.length).toBe(150); // none twice
  expect(inGraph).toEqual(expected); // every change, the renames included
  expect((await ask("MATCH (n:Element) RETURN count(n), count(DISTINCT n.id)")).rows).toEqual([[200, 200]]);
}, 400_000);
