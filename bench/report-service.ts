import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { type Database, memberships } from "@ams/db";
import { createLocalUser } from "../services/control/src/auth/create-user.ts";
import { freePort, waitFor } from "./processes.ts";
import { withServiceNodeOptions } from "./service-node-options.ts";

const CONTROL_MAIN = new URL("../services/control/src/main.ts", import.meta.url).pathname;
const SECRET = "bench-secret-bench-secret-bench-secret!!";
const PASSWORD = "report-bench-password-1";

export type ServiceReportResult = {
  /** The service's peak RSS (VmHWM) once it answers /api/health, and after the report was read to its end. */
  readyMb: number;
  peakMb: number;
  ms: number;
  bytes: number;
};

const statusMb = (pid: number, field: "VmHWM" | "VmRSS") =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

/** An owner of `organizationId` who signs in with a password: made once per database. */
export async function reportReader(database: Database, organizationId: string): Promise<string> {
  const username = `report-owner-${organizationId.slice(0, 8)}`;
  const user = await createLocalUser(database.db, {
    username,
    email: `${username}@example.com`,
    emailVerified: true,
    password: PASSWORD,
  });
  await database.db.insert(memberships).values({ organizationId, userId: user.id, role: "owner" });
  return username;
}

/**
 * The standalone service as it is started (services/control/src/main.ts: control, tenant and mcp in one process,
 * the NODE_OPTIONS of the images) on the bench's PostgreSQL, fresh: its peak RSS (the kernel's VmHWM, the whole
 * process over its life) once ready, then GET /api/export?format=html of `workspaceId` read to its end over HTTP by a
 * signed-in owner, and its peak RSS after. Linux (/proc).
 */
export async function reportInService(
  databaseUrl: string,
  username: string,
  workspaceId: string,
): Promise<ServiceReportResult> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CONTROL_MAIN], {
    env: withServiceNodeOptions({
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      MIGRATE_ON_START: "false",
      TENANT_JWT_SECRET: SECRET,
      PORT: String(port),
      NEO4J_LOCAL: "false",
      DEMO_SEED: "false",
    }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((r) => child.once("exit", r));
  try {
    const pid = child.pid ?? 0;
    await waitFor("the standalone service", async () => (await fetch(`${base}/api/health`)).ok || undefined, 120_000);
    const readyMb = statusMb(pid, "VmHWM");
    const login = await fetch(`${base}/api/auth/local/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith("access_token="))
      ?.split(";")[0];
    const headers = { cookie: cookie ?? "", origin: base };
    const activated = await fetch(`${base}/api/workspaces/${workspaceId}/activate`, { method: "POST", headers });
    if (!activated.ok) throw new Error(`activate: ${activated.status} ${await activated.text()}`);
    const t = performance.now();
    const res = await fetch(`${base}/api/export?format=html`, { headers });
    if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status} ${await res.text()}`);
    let bytes = 0;
    const reader = res.body.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    const ms = performance.now() - t;
    return { readyMb, peakMb: statusMb(pid, "VmHWM"), ms, bytes };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}
