import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { createVersion, exportModel, generateModel, replaceModel } from "@ams/model";
import { must } from "@ams/shared/testing";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { contextFor, seedWorkspace } from "../../packages/graph/test/support/seed.ts";
import { createLocalUser } from "../../services/control/src/auth/create-user.ts";
import { freePort, type ServiceProcess, startProcess, waitFor } from "./support/processes.ts";

/**
 * Issue 23: a crash in the middle of a restore leaves the workspace as it was. The standalone process
 * (services/control/src/main.ts) on real PostgreSQL restores a small version over a large model (every element,
 * relationship, view, node and connection of the large one is deleted, each recorded by the capture triggers, in one
 * transaction); once that transaction is writing the elements table, the process gets SIGKILL. The workspace must
 * export the same bytes, be at the same revision, and the log must hold no part of the restore's group (nor its
 * automatic "Before restore" version). The same restore then succeeds after a restart, so the test did interrupt
 * real work.
 */
const main = fileURLToPath(new URL("../../services/control/src/main.ts", import.meta.url));
const LARGE = 12_000;
let db: TestDatabase;
let dataDir: string;
const started: ServiceProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase("ams_restore_crash");
  dataDir = mkdtempSync(join(tmpdir(), "ams-restore-crash-"));
  chmodSync(dataDir, 0o777); // writable by the images' uid 1000 when the test runs as root
}, 120_000);
afterEach(async () => {
  for (const p of started.splice(0)) if (p.proc.exitCode === null) p.proc.kill("SIGKILL");
});
afterAll(async () => {
  await db?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Control in the standalone shape on the test database, with an owner signed in; `call` sends the page's Origin. */
async function start(username: string, orgId: string) {
  const port = await freePort();
  const p = startProcess("control", main, {
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    PORT: String(port),
    TENANT_JWT_SECRET: "restore-crash-test-secret-0123456789abcdef",
    NEO4J_LOCAL: "false",
    DEMO_SEED: "false",
  });
  started.push(p);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(
    "the standalone process to serve",
    async () => (await fetch(`${base}/api/health`)).status < 500,
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
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { cookie, origin: base, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  expect((await call("POST", `/api/organizations/${orgId}/activate`)).status).toBe(200);
  return { p, call };
}

/** What a crash must not change: the export's bytes, the revision, the log and the versions. */
async function snapshot(ctx: ReturnType<typeof contextFor>, ws: string) {
  const [row] = await db.rows<{ revision: string; groups: string; last_entry: string | null; versions: string }>(
    sql`select w.revision,
          (select count(*) from change_groups g where g.workspace_id = w.id) as groups,
          (select max(e.revision) from change_entries e where e.workspace_id = w.id) as last_entry,
          (select count(*) from workspace_versions v where v.workspace_id = w.id) as versions
        from workspaces w where w.id = ${ws}`,
  );
  return { xml: (await exportModel({ ctx })).xml, ...row };
}

/** The backend of the control process that holds a write lock on the elements table: the restore, mid-way. */
const restoreWritingElements = async () => {
  const rows = await db.rows<{ pid: number }>(
    sql`select a.pid from pg_stat_activity a join pg_locks l on l.pid = a.pid join pg_class c on c.oid = l.relation
        where a.datname = current_database() and a.application_name like 'archimate-control:%'
          and c.relname = 'elements' and l.mode = 'RowExclusiveLock' and a.backend_xid is not null`,
  );
  return rows[0]?.pid;
};

test("kill -9 in the middle of a restore on PostgreSQL: the workspace is exactly as it was", async () => {
  const { orgId, workspaceId: ws } = await seedWorkspace(db, generateModel({ elements: 40, seed: 5 }));
  const ctx = contextFor(db, orgId, ws);
  const small = await createVersion({ ctx, input: { name: "Small" } });
  const smallXml = (await exportModel({ ctx, input: { version: small.id } })).xml;
  const large = generateModel({ elements: LARGE, seed: 23 });
  await db.db.transaction((tx) => replaceModel(db, tx, ws, large));
  const username = `restorer${Date.now()}`;
  const user = await db.db.transaction((tx) =>
    createLocalUser(tx, {
      username,
      name: "Restorer",
      email: `${username}@example.com`,
      emailVerified: true,
      password: "architect-password",
    }),
  );
  await db.rows(sql`insert into memberships (organization_id, user_id, role) values (${orgId}, ${user.id}, 'owner')`);
  const before = await snapshot(ctx, ws);
  expect(before.xml).toContain(`e-${LARGE - 1}`);

  const first = await start(username, orgId);
  expect((await first.call("POST", `/api/workspaces/${ws}/activate`)).status).toBe(200);
  let settled: unknown;
  const restoring = first.call("POST", `/api/workspaces/${ws}/restore`, { version: small.id }).then(
    async (res) => (settled = { answered: res.status, body: await res.text() }),
    (err: Error) => ({ failed: err.message }),
  );
  const pid = await waitFor(
    "the restore to write the elements table",
    async () => {
      if (settled) throw new Error(`the restore answered before it was killed: ${JSON.stringify(settled)}`);
      return restoreWritingElements();
    },
    120_000,
  );
  first.p.proc.kill("SIGKILL");
  expect(await first.p.exited).toBeNull(); // killed by the signal, not exited
  // The request never got an answer: the restore was cut off, not finished.
  expect(await restoring).toMatchObject({ failed: expect.any(String) });
  // PostgreSQL notices the dead client and rolls the transaction back; wait until its backend is gone.
  await waitFor(
    "the killed process's backends to end",
    async () =>
      (
        await db.rows(
          sql`select 1 from pg_stat_activity where pid = ${pid} or (datname = current_database()
                and application_name like 'archimate-control:%')`,
        )
      ).length === 0,
    120_000,
  );

  const after = await snapshot(ctx, ws);
  expect({ ...after, xml: after.xml.length }).toEqual({ ...before, xml: before.xml.length });
  expect(after.xml === before.xml).toBe(true); // the same bytes
  const [automatic] = await db.rows<{ n: string }>(
    sql`select count(*) as n from workspace_versions where workspace_id = ${ws} and automatic`,
  );
  expect(Number(automatic?.n)).toBe(0);

  // Started again, the same restore goes through: the workspace becomes the small version.
  const second = await start(username, orgId);
  expect((await second.call("POST", `/api/workspaces/${ws}/activate`)).status).toBe(200);
  const res = await second.call("POST", `/api/workspaces/${ws}/restore`, { version: small.id });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(((await res.json()) as { revision: number }).revision).toBe(Number(before.revision) + 1);
  expect((await exportModel({ ctx })).xml).toBe(smallXml);
  expect(await second.p.stop()).toBe(0);
}, 600_000);
