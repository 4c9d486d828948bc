import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { memberships, organizations, workspaces } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { must } from "@ams/shared/testing";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLocalUser } from "../../services/control/src/auth/create-user.ts";
import { sseReader } from "../../services/control/test/support/sse.ts";
import { freePort, startProcess } from "./support/processes.ts";

/**
 * SIGTERM to control (services/control/src/main.ts) with an events stream open: the stream ends at once with
 * `closed {reason: "shutdown"}` (the browser reconnects elsewhere with Last-Event-ID), so the drain does not wait
 * for it and the process exits 0 (a stream still open at the drain bound would make it exit 1).
 */
const main = fileURLToPath(new URL("../../services/control/src/main.ts", import.meta.url));
let db: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase("ams_events_stop");
  dataDir = mkdtempSync(join(tmpdir(), "ams-events-stop-"));
}, 60_000);
afterAll(async () => {
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("SIGTERM ends every open events stream with closed/shutdown and the process exits 0", async () => {
  const user = await createLocalUser(db.db, {
    username: "stopper",
    password: "stopper-secret-pw-123",
    email: "stopper@test.example",
  });
  const [org] = await db.db.insert(organizations).values({ name: "Stop", slug: "stop-events" }).returning();
  const orgId = must(org, "the organization").id;
  await db.db.insert(memberships).values({ organizationId: orgId, userId: user.id, role: "owner" });
  const [ws] = await db.db.insert(workspaces).values({ organizationId: orgId, name: "Streamed" }).returning();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const p = startProcess("control", main, {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: String(port),
    TENANT_JWT_SECRET: "events-stop-test-secret-0123456789abcdef",
    DEMO_SEED: "false",
    NEO4J_LOCAL: "false",
    SHUTDOWN_DRAIN_MS: "20000",
    SHUTDOWN_CLOSE_MS: "5000",
  });
  try {
    let login: Response | undefined;
    for (let i = 0; i < 300 && !login; i++) {
      login = await fetch(`${base}/api/auth/local/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ username: "stopper", password: "stopper-secret-pw-123" }),
      }).catch(async () => {
        await new Promise((r) => setTimeout(r, 200));
        return undefined;
      });
    }
    expect(login?.status).toBe(200);
    const cookie = must(login, "the sign-in")
      .headers.getSetCookie()
      .map((l) => must(l.split(";")[0], "a cookie"))
      .join("; ");
    const events = sseReader(
      await fetch(`${base}/api/workspaces/${must(ws, "the workspace").id}/events`, { headers: { cookie } }),
    );
    expect((await events.next())?.event).toBe("ready");

    p.proc.kill("SIGTERM");
    expect((await events.rest()).at(-1)).toEqual({ event: "closed", data: { reason: "shutdown" } });
    expect(await p.exited).toBe(0);
  } finally {
    if (p.proc.exitCode === null) p.proc.kill("SIGKILL");
  }
}, 120_000);
