import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Worker } from "node:worker_threads";
import { createControlApp, createLive, parseEnv, seedAccounts } from "@ams/control";
import { createTestDatabase } from "@ams/db/testing";
import { createElement, type RequestContext, readGroupsAfter, updateElement } from "@ams/model";
import { createServiceTokens, silentLogger } from "@ams/shared";
import { serve } from "@hono/node-server";
import { archiWithWorkspace } from "./demo-user.ts";
import { measure, report, section, verdict } from "./lib.ts";

const SECRET = "bench-secret-bench-secret-bench-secret!!";
const STREAMS = 200;
const GROUPS_PER_SECOND = 50;
const SECONDS = 8;
const IDLE_STREAMS = 1000;
/** The split shape's NATS (presences between replicas); the machine's own when NATS_URL is not set. */
const NATS_URL = process.env.NATS_URL ?? "nats://127.0.0.1:4222";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const now = () => performance.timeOrigin + performance.now();

/**
 * Issue 24's targets: from a commit to its event on each of 200 open streams (through control's gateway over HTTP,
 * 50 change groups per second), beside the floor: a bare SSE server (node:http) writing an event of the same size to
 * 200 streams the moment the same kind of commit returns. Then the server's memory per idle open stream (1,000 of
 * them) and the p99 of an ordinary read with and without them. The browsers run in a worker thread.
 */
export async function benchLiveEvents() {
  const database = await createTestDatabase("ams_bench_live");
  const clients = new Worker(new URL("./live-clients.ts", import.meta.url));
  const floorStreams = new Set<ServerResponse>();
  const floor = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(`event: ready\ndata: {}\n\n`);
    floorStreams.add(res);
    req.on("close", () => floorStreams.delete(res));
  });
  const tokens = createServiceTokens(SECRET);
  const env = parseEnv({ NODE_ENV: "test", DEMO_SEED: "true", TENANT_JWT_SECRET: SECRET });
  await seedAccounts(database, env);
  const { createTenantApp } = await import("@ams/tenant");
  const tenant = createTenantApp({ database, tokens, log: silentLogger });
  const app = createControlApp({ database, tokens, env, upstreams: { tenant }, log: silentLogger });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((r) => (server.listening ? r() : server.once("listening", () => r())));
  // The split shape: two more control replicas on the same database, each following the log on its own LISTEN
  // connection and sharing presences over NATS.
  const replicas = [0, 1].map(() => {
    const live = createLive({ database, log: silentLogger, natsUrl: NATS_URL });
    const replica = createControlApp({ database, tokens, env, upstreams: { tenant }, live, log: silentLogger });
    return { live, server: serve({ fetch: replica.fetch, port: 0, hostname: "127.0.0.1" }) };
  });
  for (const r of replicas)
    await new Promise<void>((done) => (r.server.listening ? done() : r.server.once("listening", () => done())));
  await new Promise<void>((r) => floor.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/events`;
  try {
    const { cookie, organizationId, workspaceId } = await archiWithWorkspace(base);
    const ctx: RequestContext = {
      database,
      userId: "bench-writer",
      username: "writer",
      organizationId,
      workspaceId,
      role: "owner",
      platformAdmin: false,
      via: { kind: "api_token", name: "bench" },
    };
    await createElement({ ctx, input: { id: "hot", name: "Hot 0", type: "ApplicationComponent" } });
    const [sample] = await readGroupsAfter(database, workspaceId, 0, 1);
    const payload = JSON.stringify(sample);

    const message = (type: string) =>
      new Promise<{ arrivals?: [number, number[]][] }>((resolve, reject) => {
        const on = (msg: { type: string; message?: string; arrivals?: [number, number[]][] }) => {
          if (msg.type === "error") reject(new Error(msg.message));
          if (msg.type !== type) return;
          clients.off("message", on);
          resolve(msg);
        };
        clients.on("message", on);
      });
    const open = async (url: string, count: number) => {
      const ready = message("ready");
      clients.postMessage({ type: "start", url, count, cookie });
      await ready;
    };
    const stop = async () => {
      const stopped = message("stopped");
      clients.postMessage({ type: "stop" });
      await stopped;
    };
    /** 50 commits per second for SECONDS; each commit's return time by revision. */
    const write = async (after: (revision: number) => void) => {
      const committed = new Map<number, number>();
      const start = performance.now();
      for (let i = 1; i <= GROUPS_PER_SECOND * SECONDS; i++) {
        const due = start + (i * 1000) / GROUPS_PER_SECOND;
        if (due > performance.now()) await sleep(due - performance.now());
        const { revision } = await updateElement({ ctx, input: { id: "hot", name: `Hot ${i}` } });
        committed.set(revision, now());
        after(revision);
      }
      await sleep(1000);
      return committed;
    };
    const latencies = async (committed: Map<number, number>) => {
      const { arrivals = [] } = await (async () => {
        const collected = message("arrivals");
        clients.postMessage({ type: "collect" });
        return collected;
      })();
      const out: number[] = [];
      let missing = 0;
      for (const [revision, at] of committed) {
        const got = new Map(arrivals).get(revision) ?? [];
        missing += STREAMS - got.length;
        for (const t of got) out.push(t - at);
      }
      out.sort((a, b) => a - b);
      const q = (p: number) => out[Math.min(out.length - 1, Math.floor(p * out.length))] ?? Number.NaN;
      return { p50: q(0.5), p99: q(0.99), n: out.length, missing };
    };

    section(`Live events: commit -> event on ${STREAMS} streams, ${GROUPS_PER_SECOND} change groups/s`);
    await open(floorUrl, STREAMS);
    const floorCommitted = await write((revision) => {
      const frame = `id: ${workspaceId}:${revision}\nevent: change\ndata: ${payload}\n\n`;
      for (const res of floorStreams) res.write(frame);
    });
    const bare = await latencies(floorCommitted);
    await stop();

    await open(`${base}/api/workspaces/${workspaceId}/events`, STREAMS);
    const real = await latencies(await write(() => {}));
    await stop();
    report(`p50 (${real.n} events, ${real.missing} missing)`, real.p50, bare.p50, "<= 50 ms", real.p50 <= 50);
    report("p99", real.p99, bare.p99, "<= 250 ms", real.p99 <= 250);
    verdict(
      "every event on every stream",
      `every event on every stream: ${real.missing} missing of ${real.n + real.missing}`,
      real.missing === 0,
    );

    section(`Live events, split shape: ${STREAMS} streams across two replicas (NATS for presence), same writes`);
    const split = replicas.map((r) => `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`);
    for (const url of split) await open(`${url}/api/workspaces/${workspaceId}/events`, STREAMS / 2);
    const across = await latencies(await write(() => {}));
    await stop();
    report(
      `p50 across replicas (${across.n} events, ${across.missing} missing)`,
      across.p50,
      real.p50,
      "<= 1.5x one replica",
      across.p50 <= real.p50 * 1.5,
    );
    report("p99 across replicas", across.p99, real.p99, "<= 1.5x one replica", across.p99 <= real.p99 * 1.5);

    section(`Live events: server memory per idle open stream (${IDLE_STREAMS}) and ordinary reads beside them`);
    const me = async () => {
      const res = await fetch(`${base}/api/auth/me`, { headers: { cookie } });
      if (res.status !== 200) throw new Error(`GET /api/auth/me: ${res.status}`);
      await res.arrayBuffer();
    };
    const readsBefore = await measure(me, { iterations: 2000, warmup: 200 });
    await sleep(500);
    gc();
    const heap = () => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external + m.arrayBuffers;
    };
    const before = heap();
    await open(`${base}/api/workspaces/${workspaceId}/events`, IDLE_STREAMS);
    await sleep(500);
    gc();
    const perStream = (heap() - before) / IDLE_STREAMS;
    verdict(
      "memory per open stream",
      `memory per open stream (server heap + buffers, ${IDLE_STREAMS} streams): ${(perStream / 1024).toFixed(1)} KB   target: <= 64 KB`,
      perStream <= 64 * 1024,
    );
    const readsWith = await measure(me, { iterations: 2000, warmup: 200 });
    report(
      `GET /api/auth/me p99 with ${IDLE_STREAMS} streams open`,
      readsWith.p99,
      readsBefore.p99,
      "<= 1.1x without",
      readsWith.p99 <= readsBefore.p99 * 1.1,
    );
    await stop();
  } finally {
    await clients.terminate();
    floor.closeAllConnections();
    floor.close();
    server.close();
    (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    for (const r of replicas) {
      r.server.close();
      (r.server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await r.live.close();
    }
    await database.drop();
  }
}
