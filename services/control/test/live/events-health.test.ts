import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { createElement, type RequestContext } from "@ams/model";
import { testLogger } from "@ams/shared";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLive } from "../../src/live/live.ts";
import { type Credentials, createHarness, type Harness } from "../support/harness.ts";
import { sseReader } from "../support/sse.ts";

/**
 * Faults of the split shape, said in `/api/health` (not only in /metrics): a NATS server of this test's own (the
 * machine's shared one is left alone) stops → presence "down", while writes and events go on (they come from
 * PostgreSQL); the feed's LISTEN connection lost → events "polling" within 5 s, and every change still arrives.
 */
let h: Harness;
let nats: ChildProcess;
let ws: string;
let ctx: RequestContext;
let as: Credentials;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
const health = async () =>
  (await (await h.call("GET", "/api/health")).json()) as { status: string; checks: Record<string, string> };

beforeAll(async () => {
  const port = await freePort();
  const bin =
    process.env.NATS_SERVER_BIN ??
    ["/usr/sbin/nats-server", "/usr/local/bin/nats-server", "/usr/bin/nats-server"].find((p) => existsSync(p)) ??
    "nats-server";
  nats = spawn(bin, ["-a", "127.0.0.1", "-p", String(port)], { stdio: "ignore" });
  let failed: Error | undefined;
  nats.once("error", (err) => {
    failed = err;
  });
  while (!(await accepts(port))) {
    if (failed) throw new Error(`nats-server (${bin}) could not be started: ${failed.message}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  h = await createHarness({
    live: (database) => createLive({ database, log: testLogger("live"), natsUrl: `nats://127.0.0.1:${port}` }),
  });
  const owner = await h.user("hl-owner");
  const orgId = (await h.org("Health", [[owner, "owner"]])).id;
  ws = (await h.workspace(orgId, "Watched")).id;
  as = await h.session(owner);
  ctx = {
    database: h.database,
    userId: owner.id,
    username: owner.username,
    organizationId: orgId,
    workspaceId: ws,
    role: "owner",
    platformAdmin: false,
  };
}, 60_000);
afterAll(async () => {
  nats?.kill();
  await h?.close();
});

test("NATS down, then the feed's subscription lost: health says so, and every change still reaches the stream", async () => {
  const stream = sseReader(await h.call("GET", `/api/workspaces/${ws}/events`, { as }));
  expect((await stream.nextOf("ready"))?.event).toBe("ready");
  await expect.poll(health).toEqual({
    status: "ok",
    checks: expect.objectContaining({ database: "up", events: "live", presence: "up" }),
  });

  nats.kill();
  await expect
    .poll(health, { timeout: 5_000 })
    .toMatchObject({ status: "degraded", checks: { presence: "down", events: "live" } });
  await createElement({ ctx, input: { id: "no-nats", name: "Without NATS", type: "Node" } });
  expect((await stream.nextOf("change"))?.data).toMatchObject({ objects: [{ id: "no-nats" }] });

  // The LISTEN connection is cut (again while it reconnects): within 5 s health says the log is polled.
  const deadline = Date.now() + 5_000;
  let seen = "";
  while (seen !== "polling" && Date.now() < deadline) {
    await h.database.rows(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name like '%:listen'`,
    );
    seen = (await health()).checks.events ?? "";
  }
  expect(seen).toBe("polling");
  await createElement({ ctx, input: { id: "polled", name: "Polled", type: "Node" } });
  expect((await stream.nextOf("change"))?.data).toMatchObject({ objects: [{ id: "polled" }] });
  await expect.poll(async () => (await health()).checks.events, { timeout: 10_000 }).toBe("live");
  await stream.cancel();
}, 60_000);
