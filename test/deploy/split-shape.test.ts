import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@ams/db";
import { testServerUrl } from "@ams/db/testing";
import { must } from "@ams/shared/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureWebBuild } from "../../apps/web/build.ts";
import { startTestNeo4j, type TestNeo4j } from "../../packages/graph/test/support/neo4j.ts";
import { createLocalUser } from "../../services/control/src/auth/create-user.ts";
import { named, render, setArgs } from "./render.ts";
import { freePort, imageUser, type ServiceProcess, startProcess, tcpForwarder, waitFor } from "./support/processes.ts";
import { parsePrometheusText } from "./support/prometheus.ts";

/**
 * The split shape as the chart deploys it: the environment of each Deployment (and of the migration Job) is taken
 * from `helm template` output, Secret references resolved, and the four processes are started with it. Only the
 * addresses are changed (everything on 127.0.0.1, free ports) and the retry cap lowered to 1 s to keep the test short.
 * They run as uid 1000, as in the images, when the test runs as root (the read-only root filesystem is not
 * reproduced here: that needs a container runtime).
 * Neo4j and NATS are started only after the services: Neo4j is the suite's shared test server behind a TCP forwarder
 * switched on later, NATS is this test's own nats-server (never the shared one), stopped and restarted mid-way.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const dbName = `ams_split_${randomBytes(5).toString("hex")}`;
const databaseUrl = Object.assign(new URL(testServerUrl), { pathname: `/${dbName}` }).toString();
const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
const processes: ServiceProcess[] = [];
let nats: ChildProcess | undefined;
let natsDir: string;
let dataDir: string;
let neo4jServer: TestNeo4j;
let neo4jGate: ReturnType<typeof tcpForwarder>;
const ports: Record<string, number> = {};
let adminPassword = "";

function startNats() {
  nats = spawn("nats-server", ["-js", "-a", "127.0.0.1", "-p", String(ports.nats), "-sd", natsDir], {
    stdio: "ignore",
  });
}
async function stopNats() {
  if (!nats || nats.exitCode !== null) return;
  const exited = new Promise((r) => nats!.once("exit", r));
  nats.kill("SIGTERM");
  await exited;
}

const processNamed = (name: string) =>
  must(
    processes.find((p) => p.name === name),
    `the ${name} process`,
  );
const url = (name: string, path: string) => `http://127.0.0.1:${ports[name]}${path}`;
const health = async (name: string) => {
  const res = await fetch(url(name, "/api/health"));
  return { status: res.status, body: (await res.json()) as { status: string; checks: Record<string, string> } };
};

beforeAll(async () => {
  // The image carries the built browser UI; from a checkout, control serves apps/web/dist as `./pnpm start` builds it.
  await ensureWebBuild();
  await admin.unsafe(`create database "${dbName}"`);
  natsDir = mkdtempSync(join(tmpdir(), "ams-split-nats-"));
  dataDir = mkdtempSync(join(tmpdir(), "ams-split-data-"));
  chmodSync(dataDir, 0o777); // writable by the services' uid 1000
  neo4jServer = await startTestNeo4j();
  // Nine distinct ports: the kernel may hand the same just-closed port out twice, and two processes on one port
  // leave one of them unable to start.
  const taken = new Set<number>();
  for (const name of ["control", "tenant", "mcp", "worker", "nats", "neo4j", "mControl", "mTenant", "mMcp"]) {
    let port = await freePort();
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    ports[name] = port;
  }
  const target = new URL(neo4jServer.url);
  neo4jGate = tcpForwarder(must(ports.neo4j, "the neo4j port"), { host: target.hostname, port: Number(target.port) });

  const objects = render({
    release: "site",
    args: setArgs({
      "ingress.host": "archimate.test",
      "secrets.databaseUrl": databaseUrl,
      "secrets.neo4jPassword": neo4jServer.password,
      "neo4j.user": neo4jServer.user,
      "neo4j.url": `bolt://127.0.0.1:${ports.neo4j}`,
      "nats.url": `nats://127.0.0.1:${ports.nats}`,
    }),
  });
  const secret = objects.find((o) => o.kind === "Secret")?.stringData as Record<string, string>;
  adminPassword = must(secret.SEED_ADMIN_PASSWORD, "SEED_ADMIN_PASSWORD in the Secret");
  const envOf = (kind: string, name: string): Record<string, string> => {
    const spec = named(objects, kind, name).spec.template.spec;
    const env: Record<string, string> = {};
    for (const e of spec.containers[0].env as {
      name: string;
      value?: string;
      valueFrom?: { secretKeyRef: { key: string } };
    }[]) {
      if (e.valueFrom) {
        const value = secret[e.valueFrom.secretKeyRef.key];
        if (value !== undefined) env[e.name] = value;
      } else env[e.name] = e.value ?? "";
    }
    return env;
  };
  const local = { HOST: "127.0.0.1", DEPENDENCY_RETRY_MAX_MS: "1000", SHUTDOWN_DRAIN_MS: "5000", DATA_DIR: dataDir };

  // The migration Job first, as the pre-install hook runs it.
  const job = startProcess("migrate", join(root, "packages/db/src/migrate-cli.ts"), envOf("Job", "site-migrate"));
  expect(await job.exited, job.raw()).toBe(0);

  const control: Record<string, string> = {
    ...envOf("Deployment", "site-control"),
    ...local,
    PORT: String(ports.control),
    METRICS_PORT: String(ports.mControl),
    TENANT_URL: `http://127.0.0.1:${ports.tenant}`,
    MCP_URL: `http://127.0.0.1:${ports.mcp}`,
  };
  const tenant = {
    ...envOf("Deployment", "site-tenant"),
    ...local,
    TENANT_PORT: String(ports.tenant),
    METRICS_PORT: String(ports.mTenant),
  };
  const mcp = {
    ...envOf("Deployment", "site-mcp"),
    ...local,
    MCP_PORT: String(ports.mcp),
    METRICS_PORT: String(ports.mMcp),
  };
  const worker = { ...envOf("Deployment", "site-graph-worker"), ...local, GRAPH_WORKER_PORT: String(ports.worker) };
  expect(control.MIGRATE_ON_START).toBe("false");
  processes.push(
    startProcess("tenant", join(root, "services/tenant/src/main.ts"), tenant),
    startProcess("mcp", join(root, "services/mcp/src/main.ts"), mcp),
    startProcess("graph-worker", join(root, "services/graph-worker/src/main.ts"), worker),
    startProcess("control", join(root, "services/control/src/main.ts"), control),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await stopNats();
  await neo4jGate?.down();
  await neo4jServer?.stop();
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.end({ timeout: 5 });
  rmSync(natsDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe("the split shape started from the chart's environment", () => {
  const session: { cookie: string; token: string; orgId: string; workspaceId: string } = {
    cookie: "",
    token: "",
    orgId: "",
    workspaceId: "",
  };
  const signIn = async (username: string, password: string) => {
    const login = await fetch(url("control", "/api/auth/local/login"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    expect(login.status, await login.clone().text()).toBe(200);
    return login.headers
      .getSetCookie()
      .find((c) => c.startsWith("access_token="))!
      .split(";")[0]!;
  };
  const call = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(url("control", path), {
      method,
      headers: {
        cookie: session.cookie,
        // A browser's write names its page's origin (cookie writes without a trusted one are refused: CSRF).
        ...(method !== "GET" ? { origin: new URL(url("control", "/")).origin } : {}),
        ...(init.body !== undefined && !(init.body instanceof FormData) ? { "content-type": "application/json" } : {}),
        ...init.headers,
      },
      body: init.body instanceof FormData ? init.body : init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  test("every process is ready with PostgreSQL alone; health reports the graph and the queue as down", async () => {
    for (const name of ["control", "tenant", "mcp", "worker"]) {
      const { status, body } = await waitFor(`${name} health`, () => health(name), 60_000);
      expect({ name, status, database: body.checks.database }).toEqual({ name, status: 200, database: "up" });
    }
    const { body } = await health("control");
    // No stream open yet (events "not started"); the chart's NATS is configured but not running, so presences are
    // not shared between replicas (presence "down").
    expect(body).toEqual({
      status: "degraded",
      checks: { database: "up", queue: "down", graph: "down", events: "not started", presence: "down" },
    });
  }, 120_000);

  test("control serves the browser UI at / under its CSP, with cached assets; tenant and mcp serve none of it", async () => {
    const page = await fetch(url("control", "/"));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(page.headers.get("cache-control")).toMatch(/no-cache|no-store/);
    const html = await page.text();
    const script = must(/<script[^>]+src="([^"]+)"/.exec(html)?.[1], "the page's script");
    const asset = await fetch(url("control", script));
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await asset.text()).length).toBeGreaterThan(10_000);
    // A deep link of the app (the modeler) is the same page; an unknown API path is not.
    expect((await fetch(url("control", "/workspaces/some-id"))).headers.get("content-type")).toMatch(/^text\/html/);
    expect((await fetch(url("control", "/api/no-such-route"))).headers.get("content-type")).not.toMatch(/^text\/html/);
    for (const name of ["tenant", "mcp"]) {
      expect((await fetch(url(name, "/"))).headers.get("content-type") ?? "", name).not.toMatch(/^text\/html/);
    }
  });

  test("sign-in, an organization, an import, the export and MCP work without Neo4j and NATS", async () => {
    session.cookie = await signIn("admin", adminPassword);
    const org = await call("POST", "/api/platform/organizations", { body: { name: "Split Org" } });
    expect(org.status, await org.clone().text()).toBe(201);
    session.orgId = ((await org.json()) as { id: string }).id;
    // An architect account (invitations and SSO create them; here directly in the database), made owner by admin.
    const database = await openDatabase({ url: databaseUrl, migrate: false, maxConnections: 1 });
    await database.db.transaction((tx) =>
      createLocalUser(tx, {
        username: "architect",
        name: "Architect",
        email: "architect@example.com",
        emailVerified: true,
        password: "architect-password",
      }),
    );
    await database.close();
    const member = await call("POST", `/api/platform/organizations/${session.orgId}/members`, {
      body: { username: "architect", role: "owner" },
    });
    expect(member.status, await member.clone().text()).toBe(201);
    session.cookie = await signIn("architect", "architect-password");
    expect((await call("POST", `/api/organizations/${session.orgId}/activate`)).status).toBe(200);

    const form = new FormData();
    form.set("name", "Imported");
    form.set("organization_id", session.orgId);
    const xml = readFileSync(join(root, "packages/model/test/exchange/fixtures/features.xml"));
    form.set("file", new Blob([xml], { type: "application/xml" }), "features.xml");
    const created = await call("POST", "/api/workspaces", {
      body: form,
      headers: { "x-request-id": "split-import-1" },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    session.workspaceId = ((await created.json()) as { id: string }).id;

    const exported = await call("GET", "/api/export");
    expect(exported.status).toBe(200);
    expect(await exported.text()).toMatch(/<model[\s>]/);

    const tokenRes = await call("POST", "/api/settings/api-tokens", {
      body: { organization_id: session.orgId, workspace_id: session.workspaceId },
    });
    expect(tokenRes.status, await tokenRes.clone().text()).toBe(201);
    session.token = ((await tokenRes.json()) as { token: string }).token;
    const tools = await fetch(url("control", "/mcp/"), {
      method: "POST",
      headers: {
        authorization: `Bearer ${session.token}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "x-request-id": "split-mcp-1",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(tools.status).toBe(200);
    expect(((await tools.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(10);

    // The graph is not there yet: the rebuild says so (503), the rest of the site is unaffected.
    const rebuild = await call("POST", "/api/export/neo4j");
    expect(rebuild.status).toBe(503);
  });

  test("one access-log line per request, with the request id that the tenant logs too; never a password", async () => {
    const controlLine = processNamed("control")
      .lines()
      .find((l) => l.msg === "request" && l.request_id === "split-import-1");
    expect(controlLine).toMatchObject({
      service: "control",
      method: "POST",
      route: "/api/workspaces",
      status: 201,
      organization_id: session.orgId,
    });
    expect(typeof controlLine?.duration_ms).toBe("number");
    const tenantLine = processNamed("tenant")
      .lines()
      .find((l) => l.msg === "request" && l.request_id === "split-import-1");
    expect(tenantLine).toMatchObject({
      service: "tenant",
      method: "POST",
      status: 201,
      organization_id: session.orgId,
    });
    // The same for a request to /mcp: control and mcp each log it once under the caller's request id.
    const mcpCall = (p: (typeof processes)[number]) =>
      p.lines().filter((l) => l.msg === "request" && l.request_id === "split-mcp-1");
    expect(mcpCall(processNamed("control"))).toEqual([
      expect.objectContaining({ service: "control", method: "POST", status: 200, organization_id: session.orgId }),
    ]);
    expect(mcpCall(processNamed("mcp"))).toEqual([
      expect.objectContaining({ service: "mcp", method: "POST", status: 200, organization_id: session.orgId }),
    ]);
    expect(typeof mcpCall(processNamed("mcp"))[0]?.duration_ms).toBe("number");
    for (const p of processes) expect(p.raw()).not.toContain(adminPassword);
    expect(session.token.length).toBeGreaterThan(20);
    for (const p of processes) expect(p.raw()).not.toContain(session.token);
    for (const p of processes) expect(p.raw()).not.toContain("architect-password");
  });

  test("Neo4j and NATS come up after the services: the graph and the queue recover, a rebuild runs", async () => {
    startNats();
    await neo4jGate.up();
    await waitFor("queue and graph up", async () => {
      const { body } = await health("control");
      return body.checks.queue === "up" && body.checks.graph === "up";
    });
    const rebuild = await call("POST", "/api/export/neo4j", { headers: { "x-request-id": "split-rebuild-1" } });
    expect([200, 202]).toContain(rebuild.status);
    await waitFor("the worker logs the job under the request id", async () =>
      processNamed("graph-worker")
        .lines()
        .some((l) => l.request_id === "split-rebuild-1" && /generation/.test(String(l.msg))),
    );
    const { body } = await health("worker");
    expect(body).toEqual({ status: "ok", checks: { database: "up", queue: "up", graph: "up" } });
  });

  test("NATS stopped and restarted mid-way: the queue recovers without restarting a service", async () => {
    const pids = processes.map((p) => p.proc.pid);
    await stopNats();
    await waitFor("queue reported down", async () => (await health("tenant")).body.checks.queue === "down");
    expect((await health("control")).status).toBe(200);
    startNats();
    await waitFor("queue up again", async () => (await health("tenant")).body.checks.queue === "up");
    const rebuild = await call("POST", "/api/export/neo4j", { headers: { "x-request-id": "split-rebuild-2" } });
    expect([200, 202]).toContain(rebuild.status);
    await waitFor("the rebuild after the outage ran", async () =>
      processNamed("graph-worker")
        .lines()
        .some((l) => l.request_id === "split-rebuild-2" && /generation/.test(String(l.msg))),
    );
    expect(processes.map((p) => p.proc.pid)).toEqual(pids);
    expect(processes.every((p) => p.proc.exitCode === null)).toBe(true);
  });

  test("each service's /metrics is Prometheus text with request counts and latency histograms by route template", async () => {
    const text = await (await fetch(`http://127.0.0.1:${ports.mControl}/metrics`)).text();
    const samples = parsePrometheusText(text);
    const login = samples.find(
      (s) =>
        s.name === "archimate_http_requests_total" &&
        s.labels.route === "/api/auth/local/login" &&
        s.labels.status === "200" &&
        s.labels.service === "control",
    );
    expect(login?.value).toBeGreaterThanOrEqual(1);
    const buckets = samples.filter(
      (s) => s.name === "archimate_http_request_duration_seconds_bucket" && s.labels.route === "/api/workspaces",
    );
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets.at(-1)?.labels.le).toBe("+Inf");
    for (const m of ["mTenant", "mMcp"]) {
      const other = parsePrometheusText(await (await fetch(`http://127.0.0.1:${ports[m]}/metrics`)).text());
      expect(other.some((s) => s.name === "archimate_http_requests_total")).toBe(true);
    }
    const worker = parsePrometheusText(await (await fetch(url("worker", "/metrics"))).text());
    const value = (samples: typeof worker, name: string, labels: Record<string, string> = {}) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(
      value(worker, "archimate_graph_rebuild_duration_seconds_count", { outcome: "succeeded" }),
    ).toBeGreaterThanOrEqual(2);
    expect(value(worker, "archimate_graph_jobs_queued")).toBe(0);
    expect(value(worker, "archimate_graph_queue_lag_seconds")).toBe(0);
    const tenant = parsePrometheusText(await (await fetch(`http://127.0.0.1:${ports.mTenant}/metrics`)).text());
    expect(value(tenant, "archimate_import_duration_seconds_count", { status: "201" })).toBe(1);
    for (const samplesOf of [samples, tenant, worker]) {
      expect(value(samplesOf, "archimate_db_up")).toBe(1);
      expect(value(samplesOf, "archimate_db_pool_max_connections")).toBe(10);
      // PostgreSQL's count of the pool's connections: at least the one that answered the scrape.
      expect(value(samplesOf, "archimate_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(1);
      expect(value(samplesOf, "archimate_db_pool_connections", { state: "in_use" })).toBeGreaterThanOrEqual(0);
    }
    // The metrics are not on the public port (there /metrics is only the browser UI's page, if anything).
    expect(await (await fetch(url("control", "/metrics"))).text()).not.toContain("archimate_http_requests_total");
  });

  test("the services run as the images' user (uid 1000) where the machine allows it", () => {
    if (!imageUser.uid) return; // not root here: the processes run as this user
    for (const p of processes) {
      const status = readFileSync(`/proc/${p.proc.pid}/status`, "utf8");
      expect({ name: p.name, uid: /^Uid:\s+(\d+)/m.exec(status)?.[1] }).toEqual({ name: p.name, uid: "1000" });
    }
  });

  test("SIGTERM stops every service gracefully: exit status 0", async () => {
    const codes = await Promise.all(processes.map((p) => p.stop()));
    expect(Object.fromEntries(processes.map((p, i) => [p.name, codes[i]]))).toEqual({
      tenant: 0,
      mcp: 0,
      "graph-worker": 0,
      control: 0,
    });
  });
});
