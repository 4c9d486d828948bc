import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openDatabase } from "@ams/db";
import { testServerUrl } from "@ams/db/testing";
import { generateModel, replaceModel } from "@ams/model";
import { createServiceTokens } from "@ams/shared";
import { SERVICE_TOKEN_HEADER } from "@ams/shared/http";
import { must } from "@ams/shared/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../packages/graph/test/support/neo4j.ts";
import { createLocalUser } from "../../services/control/src/auth/create-user.ts";
import { freePort, type ServiceProcess, startProcess, waitFor } from "../deploy/support/processes.ts";

/**
 * The split deployment in the session profile as four Node processes on loopback ports — control
 * (AUTH_MODE=session), tenant, mcp and graph-worker — on a real PostgreSQL database, this suite's own NATS JetStream
 * server and the suite's shared local Neo4j; a second control in AUTH_MODE=local on the same database and services
 * shows the other profile. Everything goes through the gateway except the inter-service token checks, which talk to
 * tenant and mcp directly.
 */
const root = fileURLToPath(new URL("../..", import.meta.url));
const dbName = `ams_four_${randomBytes(5).toString("hex")}`;
const databaseUrl = Object.assign(new URL(testServerUrl), { pathname: `/${dbName}` }).toString();
const admin = postgres(testServerUrl, { max: 1, onnotice: () => {} });
const ports: Record<string, number> = {};
const procs: Record<string, ServiceProcess> = {};
let nats: ChildProcess | undefined;
let natsDir: string;
let neo4j: TestNeo4j;
let workerEnv: Record<string, string>;
const keys = generateKeyPairSync("ed25519");
const privatePem = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const publicPem = keys.publicKey.export({ type: "spki", format: "pem" }).toString();

const url = (name: string, path: string) => `http://127.0.0.1:${ports[name]}${path}`;
const origin = () => `http://127.0.0.1:${ports.control}`;

beforeAll(async () => {
  await admin.unsafe(`create database "${dbName}"`);
  natsDir = mkdtempSync(join(tmpdir(), "ams-four-nats-"));
  neo4j = await startTestNeo4j();
  for (const name of ["control", "local", "tenant", "mcp", "worker", "nats", "m1", "m2", "m3", "m4", "m5"]) {
    ports[name] = await freePort();
  }
  nats = spawn("nats-server", ["-js", "-a", "127.0.0.1", "-p", String(ports.nats), "-sd", natsDir], {
    stdio: "ignore",
  });
  const common = {
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    NATS_URL: `nats://127.0.0.1:${ports.nats}`,
    NEO4J_URL: neo4j.url,
    NEO4J_USER: neo4j.user,
    NEO4J_PASSWORD: neo4j.password,
    DEPENDENCY_RETRY_MAX_MS: "1000",
    GRAPH_ACK_WAIT_MS: "2000",
    GRAPH_REBUILD_WAIT_MS: "1000",
  };
  const control = (port: number, metrics: number, mode: string) => ({
    ...common,
    PORT: String(port),
    METRICS_PORT: String(metrics),
    TENANT_URL: url("tenant", ""),
    MCP_URL: url("mcp", ""),
    TENANT_JWT_PRIVATE_KEY: privatePem,
    AUTH_MODE: mode,
    DEMO_SEED: "true",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  // Control first: it migrates the database and seeds the session profile's demo accounts.
  procs.control = startProcess(
    "control",
    join(root, "services/control/src/main.ts"),
    control(must(ports.control, "the control port"), must(ports.m1, "the m1 port"), "session"),
  );
  await waitFor(
    "control health",
    async () => (await fetch(url("control", "/api/health"))).status < 500 || undefined,
    90_000,
  ).catch(() => undefined);
  const verifier = { ...common, TENANT_JWT_PUBLIC_KEY: publicPem };
  procs.tenant = startProcess("tenant", join(root, "services/tenant/src/main.ts"), {
    ...verifier,
    TENANT_PORT: String(ports.tenant),
    METRICS_PORT: String(ports.m2),
  });
  procs.mcp = startProcess("mcp", join(root, "services/mcp/src/main.ts"), {
    ...verifier,
    MCP_PORT: String(ports.mcp),
    METRICS_PORT: String(ports.m3),
  });
  workerEnv = { ...common, GRAPH_WORKER_PORT: String(ports.worker), METRICS_PORT: String(ports.m4) };
  procs.worker = startProcess("graph-worker", join(root, "services/graph-worker/src/main.ts"), workerEnv);
  procs.local = startProcess(
    "control-local",
    join(root, "services/control/src/main.ts"),
    control(must(ports.local, "the local port"), must(ports.m5, "the m5 port"), "local"),
  );
  for (const name of ["control", "tenant", "mcp", "worker", "local"]) {
    await waitFor(
      `${name} health`,
      async () => (await fetch(url(name, "/api/health"))).status === 200 || undefined,
      90_000,
    );
  }
}, 240_000);

afterAll(async () => {
  await Promise.all(Object.values(procs).map((p) => p.stop()));
  if (nats && nats.exitCode === null) {
    const exited = new Promise((r) => nats!.once("exit", r));
    nats.kill("SIGTERM");
    await exited;
  }
  await neo4j?.stop();
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.end({ timeout: 5 });
  rmSync(natsDir, { recursive: true, force: true });
}, 60_000);

type Caller = { cookie?: string; bearer?: string };
const call = (as: Caller, method: string, path: string, body?: unknown, base = "control") =>
  fetch(url(base, path), {
    method,
    headers: {
      ...(as.cookie ? { cookie: as.cookie } : {}),
      ...(as.bearer ? { authorization: `Bearer ${as.bearer}` } : {}),
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(method !== "GET" ? { origin: origin() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const json = async <T>(res: Response, status: number): Promise<T> => {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text ? JSON.parse(text) : undefined) as T;
};

async function signIn(username: string, password: string): Promise<Caller> {
  const res = await fetch(url("control", "/auth/sign-in/username"), {
    method: "POST",
    headers: { "content-type": "application/json", origin: origin() },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.split("=")[0]!.endsWith("session_token"));
  expect(cookie).toMatch(/HttpOnly/i);
  return { cookie: cookie!.split(";")[0] };
}

async function mcpTool(as: Caller, name: string, args: Record<string, unknown> = {}) {
  const res = await fetch(url("control", "/mcp/"), {
    method: "POST",
    headers: {
      authorization: `Bearer ${as.bearer}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  return (await json<{ result: { isError?: boolean; content: unknown[] } }>(res, 200)).result;
}

const state = {
  org: "",
  secret: "",
  team: "",
  hidden: "",
  owner: {} as Caller,
  member: {} as Caller,
  teamie: {} as Caller,
};

describe("four processes, session profile", () => {
  test("sign-in in both profiles: the session cookie here, the local access cookie on the local-profile control", async () => {
    state.owner = await signIn("archi", "archi-dev-password");
    const me = await json<{ memberships: { organization_id: string; role: string }[]; auth_provider: string }>(
      await call(state.owner, "GET", "/api/me"),
      200,
    );
    expect(me.auth_provider).toBe("session");
    state.org = me.memberships[0]!.organization_id;
    expect(me.memberships[0]!.role).toBe("owner");

    const local = await fetch(url("local", "/api/auth/local/login"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "archi", password: "archi-dev-password" }),
    });
    expect(local.status).toBe(200);
    const access = local.headers
      .getSetCookie()
      .find((c) => c.startsWith("access_token="))!
      .split(";")[0]!;
    expect((await call({ cookie: access }, "GET", "/api/workspaces", undefined, "local")).status).toBe(200);
  });

  test("organization and team set-up by the owner", async () => {
    const database = await openDatabase({ url: databaseUrl, migrate: false, maxConnections: 1 });
    await database.db.transaction((tx) =>
      createLocalUser(tx, { username: "teamie", email: "teamie@example.com", password: "teamie-password-1" }),
    );
    await database.close();
    await json(
      await call(state.owner, "POST", `/api/organizations/${state.org}/members`, {
        username: "teamie",
        role: "member",
      }),
      201,
    );
    const team = await json<{ id: string }>(
      await call(state.owner, "POST", `/api/organizations/${state.org}/teams`, { name: "Core" }),
      201,
    );
    const members = await json<{ userId: string; username: string }[]>(
      await call(state.owner, "GET", `/api/organizations/${state.org}/members`),
      200,
    );
    const teamie = members.find((m) => m.username === "teamie")!;
    await json(
      await call(state.owner, "PUT", `/api/organizations/${state.org}/teams/${team.id}/members/${teamie.userId}`),
      204,
    );
    const secret = await json<{ id: string }>(
      await call(state.owner, "POST", "/api/workspaces", { name: "Secret Plans" }),
      201,
    );
    state.secret = secret.id;
    state.team = team.id;
    await json(await call(state.owner, "POST", `/api/workspaces/${secret.id}/activate`), 200);
    const hidden = await json<{ id: string }>(
      await call(state.owner, "POST", "/api/elements", { type: "BusinessActor", name: "Hidden Actor" }),
      201,
    );
    state.hidden = hidden.id;
    // Before the workspace is restricted the whole organization sees it: the member opens it, and the probes used
    // below do find its content (so their silence afterwards means something).
    state.member = await signIn("user", "user-dev-password");
    await json(await call(state.member, "POST", `/api/workspaces/${secret.id}/activate`), 200);
    expect(await (await call(state.member, "GET", "/api/export")).text()).toContain("Hidden Actor");
    expect((await call(state.member, "GET", `/api/elements/${hidden.id}`)).status).toBe(200);
    await json(await call(state.owner, "PUT", `/api/workspaces/${secret.id}/teams`, { team_ids: [team.id] }), 200);
    state.teamie = await signIn("teamie", "teamie-password-1");
    for (const who of ["member", "teamie"] as const) {
      const created = await call(state[who], "POST", "/api/settings/api-tokens", {
        name: "mcp",
        organization_id: state.org,
      });
      state[who].bearer = (await json<{ token: string }>(created, 201)).token;
    }
  });

  test("the team-restricted workspace is invisible to a non-team member: REST list and by id, export, MCP, explore", async () => {
    const names = async (as: Caller) =>
      (await json<{ name: string }[]>(await call(as, "GET", "/api/workspaces"), 200)).map((w) => w.name);
    expect(await names(state.member)).not.toContain("Secret Plans");
    expect(await names(state.teamie)).toContain("Secret Plans");
    expect((await call(state.member, "POST", `/api/workspaces/${state.secret}/activate`)).status).toBe(404);
    expect((await call(state.member, "GET", `/api/workspaces/${state.secret}/teams`)).status).toBe(404);

    // The member's stored choice still names the restricted workspace (opened before it was restricted): every
    // read of "the active workspace" must now reach something else, or nothing.
    const db = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const [selection] = await db<{ workspace_id: string | null }[]>`
      select s.workspace_id from user_selections s join users u on u.id = s.user_id where u.username = 'user'`;
    await db.end({ timeout: 5 });
    expect(selection?.workspace_id).toBe(state.secret);
    const exported = await call(state.member, "GET", "/api/export");
    expect(exported.status).toBeLessThan(500);
    expect(await exported.text()).not.toContain("Hidden Actor");
    const zip = await call(state.member, "GET", "/api/export/zip");
    expect(zip.status).toBeLessThan(500);
    expect(Buffer.from(await zip.arrayBuffer()).toString("latin1")).not.toContain(state.hidden);
    expect((await call(state.member, "GET", `/api/elements/${state.hidden}`)).status).toBe(404);
    const elements = await call(state.member, "GET", "/api/elements");
    expect(await elements.text()).not.toContain("Hidden Actor");

    const listed = JSON.stringify(await mcpTool(state.member, "list_workspaces"));
    expect(listed).not.toContain("Secret Plans");
    expect(JSON.stringify(await mcpTool(state.teamie, "list_workspaces"))).toContain("Secret Plans");
    const byId = await mcpTool(state.member, "export_model", { workspace_id: state.secret });
    expect(byId.isError).toBe(true);
    expect(JSON.stringify(byId)).not.toContain("Hidden Actor");
    const element = await mcpTool(state.member, "get_element", {
      workspace_id: state.secret,
      element_id: state.hidden,
    });
    expect(element.isError).toBe(true);
    expect(JSON.stringify(element)).not.toContain("Hidden Actor");
    const explore = await mcpTool(state.member, "explore", {
      workspace_id: state.secret,
      query: "MATCH (n) RETURN n.name AS name",
    });
    expect(explore.isError).toBe(true);
    expect(JSON.stringify(explore)).not.toContain("Hidden Actor");
  });

  test("the non-team member's PUT and DELETE on the restricted workspace are 404, on its content refused; nothing changes", async () => {
    expect((await call(state.member, "PUT", `/api/workspaces/${state.secret}`, { name: "Taken" })).status).toBe(404);
    expect((await call(state.member, "DELETE", `/api/workspaces/${state.secret}`)).status).toBe(404);
    expect((await call(state.member, "PUT", `/api/workspaces/${state.secret}/teams`, { team_ids: [] })).status).toBe(
      404,
    );
    // Content writes: a member writes nothing anywhere (403 before any lookup), the restricted workspace included.
    expect((await call(state.member, "PUT", `/api/elements/${state.hidden}`, { name: "Defaced" })).status).toBe(403);
    expect((await call(state.member, "DELETE", `/api/elements/${state.hidden}`)).status).toBe(403);
    for (const [tool, args] of [
      ["update_element", { workspace_id: state.secret, element_id: state.hidden, name: "Defaced" }],
      ["delete_element", { workspace_id: state.secret, element_id: state.hidden }],
    ] as const) {
      expect((await mcpTool(state.member, tool, args)).isError, tool).toBe(true);
    }
    // The team member still finds everything as it was.
    const teams = await json<{ id: string }[] | { teams: { id: string }[] }>(
      await call(state.owner, "GET", `/api/workspaces/${state.secret}/teams`),
      200,
    );
    expect(JSON.stringify(teams)).toContain(state.team);
    expect(JSON.stringify(await mcpTool(state.teamie, "list_workspaces"))).toContain("Secret Plans");
    const kept = await mcpTool(state.teamie, "get_element", { workspace_id: state.secret, element_id: state.hidden });
    expect(kept.isError).toBeFalsy();
    expect(JSON.stringify(kept)).toContain("Hidden Actor");
  });

  test("a member's write is refused (REST and MCP)", async () => {
    expect((await call(state.member, "POST", "/api/elements", { type: "BusinessActor", name: "x" })).status).toBe(403);
    expect((await mcpTool(state.member, "create_workspace", { name: "Nope" })).isError).toBe(true);
  });

  test("a rebuild is consumed by the separate graph-worker; the team member explores the result", {
    timeout: 90_000,
  }, async () => {
    const rebuild = await call(state.owner, "POST", "/api/export/neo4j");
    expect([200, 202]).toContain(rebuild.status);
    const job = (await rebuild.json()) as { id: string };
    let last = "";
    await waitFor(
      "rebuild",
      async () => {
        const res = await call(state.owner, "GET", `/api/export/neo4j/jobs/${job.id}`);
        last = await res.text();
        return (JSON.parse(last) as { state: string }).state === "succeeded" || undefined;
      },
      60_000,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}; job: ${last}; worker: ${procs.worker!.raw().slice(-2000)}`);
    });
    expect(procs.worker!.raw()).toContain(job.id);
    await json(await call(state.teamie, "POST", `/api/workspaces/${state.secret}/activate`), 200);
    const explored = await call(state.teamie, "POST", "/api/explore", { query: "MATCH (n) RETURN n.name AS name" });
    expect(await explored.text()).toContain("Hidden Actor");
    // The graph now holds the restricted workspace's content; the member whose stored choice still names that
    // workspace explores through the same REST route and gets none of it.
    const probe = await call(state.member, "POST", "/api/explore", { query: "MATCH (n) RETURN n.name AS name" });
    expect(probe.status).toBeLessThan(500);
    expect(await probe.text()).not.toContain("Hidden Actor");
  });

  test("the graph-worker killed (SIGKILL) in the middle of a job and started again completes it", {
    timeout: 180_000,
  }, async () => {
    // A workspace large enough that its rebuild runs for a while, filled straight in the database.
    const big = await json<{ id: string }>(await call(state.owner, "POST", "/api/workspaces", { name: "Big" }), 201);
    const database = await openDatabase({ url: databaseUrl, migrate: false, maxConnections: 1 });
    await database.db.transaction((tx) =>
      replaceModel(database, tx, big.id, generateModel({ elements: 20_000, views: 2 })),
    );
    await database.close();
    const rebuild = await call(state.owner, "POST", "/api/export/neo4j");
    expect(rebuild.status).toBe(202);
    const job = (await rebuild.json()) as { id: string };
    const jobState = async () =>
      (await (await call(state.owner, "GET", `/api/export/neo4j/jobs/${job.id}`)).json()) as {
        state: string;
        attempts: number;
      };
    await waitFor("the job running in the worker", async () => (await jobState()).state === "running" || undefined);
    procs.worker!.proc.kill("SIGKILL");
    await procs.worker!.exited;
    expect((await jobState()).state).toBe("running");
    procs.worker = startProcess("graph-worker", join(root, "services/graph-worker/src/main.ts"), workerEnv);
    const done = await waitFor(
      "the restarted worker's job",
      async () => {
        const current = await jobState();
        return current.state === "succeeded" ? current : undefined;
      },
      150_000,
    );
    expect(done.attempts).toBeGreaterThanOrEqual(2);
  });

  test("MCP over the gateway: tools/list answers", async () => {
    const res = await fetch(url("control", "/mcp/"), {
      method: "POST",
      headers: {
        authorization: `Bearer ${state.teamie.bearer}`,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect((await json<{ result: { tools: unknown[] } }>(res, 200)).result.tools.length).toBeGreaterThan(10);
  });
});

describe("inter-service tokens sent straight to tenant and mcp", () => {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const kid = () => {
    const tokens = createServiceTokens({ privateKey: keys.privateKey, publicKeys: [keys.publicKey] });
    return tokens;
  };
  async function crafted(payload: Record<string, unknown>, key = keys.privateKey, kidOf?: string): Promise<string> {
    // The real signer's header (its kid), then our own payload signed with the given key.
    const real = await kid().sign(
      {
        userId: "u",
        username: "u",
        organizationId: null,
        workspaceId: null,
        role: null,
        platformAdmin: false,
        apiTokenId: null,
      },
      "tenant",
    );
    const header = kidOf ?? real.split(".")[0]!;
    const body = `${header}.${b64(payload)}`;
    return `${body}.${sign(null, Buffer.from(body), key).toString("base64url")}`;
  }
  const now = () => Math.floor(Date.now() / 1000);
  const base = (aud: string) => ({
    iss: "svc-control",
    aud,
    sub: "someone",
    usr: "x",
    org: null,
    ws: null,
    role: null,
    adm: false,
    tok: null,
  });
  const send = (service: "tenant" | "mcp", token: string) =>
    fetch(url(service, service === "tenant" ? "/api/workspaces" : "/api/mcp"), {
      method: service === "tenant" ? "GET" : "POST",
      headers: {
        [SERVICE_TOKEN_HEADER]: token,
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
      },
      body: service === "mcp" ? JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) : undefined,
    });

  for (const service of ["tenant", "mcp"] as const) {
    test(`${service} refuses forged, expired, wrong-audience and wrong-issuer tokens and accepts control's`, async () => {
      const forger = generateKeyPairSync("ed25519").privateKey;
      const cases: Record<string, string> = {
        forged: await crafted({ ...base(service), iat: now(), exp: now() + 30 }, forger),
        expired: await crafted({ ...base(service), iat: now() - 120, exp: now() - 90 }),
        "wrong audience": await crafted({
          ...base(service === "tenant" ? "mcp" : "tenant"),
          iat: now(),
          exp: now() + 30,
        }),
        "wrong issuer": await crafted({ ...base(service), iss: "svc-evil", iat: now(), exp: now() + 30 }),
      };
      for (const [what, token] of Object.entries(cases)) {
        expect({ what, status: (await send(service, token)).status }).toEqual({ what, status: 401 });
      }
      const good = await crafted({ ...base(service), iat: now(), exp: now() + 30 });
      expect((await send(service, good)).status).not.toBe(401);
    });
  }
});
