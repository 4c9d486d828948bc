import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { type Database, memberships, openDatabase, organizations } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import { generateModel, serializeExchange } from "@ams/model";
import type { TestNeo4j } from "../packages/graph/test/support/neo4j.ts";
import { createLocalUser } from "../services/control/src/auth/create-user.ts";
import type { Fleet, LoadOrganization, Member } from "./load-workload.ts";
import { freePort, waitFor } from "./processes.ts";
import { withServiceNodeOptions } from "./service-node-options.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const script = (path: string) => join(root, path);
export const LOAD_PASSWORD = "load-bench-password-1";

/**
 * A process of the shape under load, with the /metrics port its CPU, RSS and event-loop delay are read from, and its
 * pid (where CPU and RSS are read when it publishes no /metrics: a tree before 25 November).
 */
export type Service = { name: string; pid: number; metricsUrl: string; stop(): Promise<void>; logTail(): string };

/** What a shape started, undone in reverse order: when it stops, and also when starting it failed halfway. */
type Teardown = { add(step: () => unknown): void; run(): Promise<void> };
function teardown(): Teardown {
  const steps: (() => unknown)[] = [];
  return {
    add: (step) => steps.push(step),
    async run() {
      for (const step of steps.splice(0).reverse()) await step();
    },
  };
}

/** Runs `start` with a teardown; when it throws, whatever it had started is stopped before the error goes on. */
async function starting<T>(start: (down: Teardown) => Promise<T>): Promise<T> {
  const down = teardown();
  try {
    return await start(down);
  } catch (err) {
    await down.run();
    throw err;
  }
}

/**
 * Removes a run's working folder; with LOAD_LOGS=<dir>, each process's log is first copied to <dir>/<shape>-<time>/
 * (a failed request's 500 is explained there, not in the load report).
 */
function keepLogs(work: string, shape: string): void {
  const keep = process.env.LOAD_LOGS;
  if (keep) {
    const into = join(keep, `${shape}-${new Date().toISOString().replace(/[:.]/g, "-")}`);
    cpSync(work, into, { recursive: true, filter: (path) => path === work || path.endsWith(".log") });
    console.log(`      logs kept in ${into}`);
  }
  rmSync(work, { recursive: true, force: true });
}

/** Starts `node <script>` with its log lines going to files (as a container's would), not into this process. */
async function startService(
  down: Teardown,
  name: string,
  path: string,
  env: Record<string, string>,
  logDir: string,
): Promise<Service> {
  // The graph worker publishes /metrics on its own port (GRAPH_WORKER_PORT), the others on METRICS_PORT.
  const metricsPort = env.GRAPH_WORKER_PORT ? Number(env.GRAPH_WORKER_PORT) : await freePort();
  const out = join(logDir, `${name}.log`);
  // LOAD_CPU_PROFILE=<dir>: each process writes a V8 CPU profile there when it stops (open in Chrome DevTools).
  const profile = process.env.LOAD_CPU_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.LOAD_CPU_PROFILE}`] : [];
  // A service runs with the NODE_OPTIONS its image gives it; the floor (bench/load-floor.ts, the same code in both
  // trees of a comparison) with none.
  const processEnv: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    ...env,
    METRICS_PORT: String(metricsPort),
  };
  // PGLITE_TRACE=<file>: the embedded database's time per statement, written by each process (packages/db).
  if (process.env.PGLITE_TRACE) processEnv.PGLITE_TRACE = `${process.env.PGLITE_TRACE}.${name}`;
  // LOAD_NODE_ARGS: more arguments for node in every process (e.g. `--import /path/trace.mjs`), space-separated.
  const extra = process.env.LOAD_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child: ChildProcess = spawn(process.execPath, [...profile, ...extra, path], {
    env: path.endsWith("/src/main.ts") ? withServiceNodeOptions(processEnv) : processEnv,
    stdio: ["ignore", openSync(out, "a"), openSync(out, "a")],
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const service: Service = {
    name,
    pid: child.pid ?? 0,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    logTail: () => readFileSync(out, "utf8").split("\n").slice(-15).join("\n"),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  down.add(() => service.stop());
  return service;
}

async function healthy(service: Service, base: string) {
  await waitFor(
    `${service.name} at ${base}`,
    async () => (await fetch(`${base}/api/health`)).status === 200 || undefined,
    120_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${service.name}'s last log lines:\n${service.logTail()}`);
  });
}

/** A shape running: where the gateway and the floor answer, every process to watch, and how to stop it all. */
export type RunningShape = {
  name: "standalone" | "split";
  description: string;
  base: string;
  floorBase: string;
  services: Service[];
  floor: Service;
  stop(): Promise<void>;
};

/** The shape's dependencies outside Node: Neo4j for explore when it can start, and (split) a NATS of our own. */
export type Dependencies = { neo4j?: TestNeo4j; neo4jMissing?: string; stop(): Promise<void> };

export async function startDependencies(): Promise<Dependencies> {
  try {
    // Imported here, not at the top: a tree without this test support (a ref `pnpm bench:compare` runs this file
    // in) then only leaves explore out.
    const { startTestNeo4j } = await import("../packages/graph/test/support/neo4j.ts");
    const neo4j = await startTestNeo4j();
    return { neo4j, stop: () => neo4j.stop() };
  } catch (err) {
    return { neo4jMissing: `Neo4j could not start (${(err as Error).message.split("\n")[0]})`, stop: async () => {} };
  }
}

const graphEnv = (deps: Dependencies): Record<string, string> =>
  deps.neo4j
    ? { NEO4J_URL: deps.neo4j.url, NEO4J_USER: deps.neo4j.user, NEO4J_PASSWORD: deps.neo4j.password }
    : { NEO4J_LOCAL: "false" };

/** The people of the fleet, written straight into the database (there is no API to create accounts in bulk). */
async function seedPeople(database: Database, orgCount: number) {
  const roles = ["owner", "editor", "viewer"] as const;
  const people: { orgId: string; users: { username: string; role: Member["role"] }[] }[] = [];
  for (let o = 0; o < orgCount; o++) {
    const [org] = await database.db
      .insert(organizations)
      .values({ slug: `load-${o}`, name: `Load organization ${o}` })
      .returning();
    const users = await Promise.all(
      roles.map(async (role) => {
        const username = `load-${o}-${role}`;
        const user = await createLocalUser(database.db, {
          username,
          email: `${username}@example.com`,
          emailVerified: true,
          password: LOAD_PASSWORD,
        });
        await database.db.insert(memberships).values({ organizationId: org!.id, userId: user.id, role });
        return { username, role };
      }),
    );
    people.push({ orgId: org!.id, users });
  }
  return people;
}

/** The generated model every load workspace starts from, and the smaller one the occasional import sends. */
export const loadModel = { elements: 300, views: 3, nodesPerView: 20 };
const seedXml = () => serializeExchange(generateModel(loadModel));
export const importXml = () => serializeExchange(generateModel({ elements: 100, views: 1, seed: 3 }));

type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<unknown>;

let addresses = 0;
const known = new Map<string, string>();
const addressOf = (username: string) => {
  if (!known.has(username)) known.set(username, `10.${(++addresses >> 8) & 255}.${addresses & 255}.1`);
  return known.get(username)!;
};

/** Calls as a signed-in member through the gateway; anything but 2xx stops the seeding with what the server said. */
function caller(base: string, cookie: string): Call {
  return async (method, path, body, headers = {}) => {
    const raw = typeof body === "string";
    const res = await fetch(base + path, {
      method,
      headers: {
        cookie,
        origin: base,
        ...(body === undefined ? {} : { "content-type": raw ? "application/xml" : "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`seeding: ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/**
 * Every member signs in from an address of their own (X-Forwarded-For, trusted one hop): the login limiter counts
 * an attempt as a failure until its password is checked, so more than five people signing in at once from one
 * address are refused for a while, which a real fleet behind one proxy address would meet too.
 */
export async function signIn(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/local/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": addressOf(username) },
    body: JSON.stringify({ username, password: LOAD_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${username}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .find((c) => c.startsWith("access_token="))!
    .split(";")[0]!;
}

/**
 * Through the gateway, as the people themselves: each owner creates the load workspace and a second one for imports,
 * imports the generated model, and every member activates the load workspace and makes an MCP token pinned to it.
 * With Neo4j, each load workspace's graph is rebuilt so explore has something to read.
 */
async function seedWorkspaces(
  base: string,
  people: Awaited<ReturnType<typeof seedPeople>>,
  graph: boolean,
): Promise<LoadOrganization[]> {
  const xml = seedXml();
  const seedOne = async ({ orgId, users }: (typeof people)[number]): Promise<LoadOrganization> => {
    const signedIn = await Promise.all(users.map(async (u) => ({ ...u, cookie: await signIn(base, u.username) })));
    const owner = caller(base, signedIn[0]!.cookie);
    const imports = (await owner("POST", "/api/workspaces", { name: "Imports" })) as { id: string };
    const workspace = (await owner("POST", "/api/workspaces", { name: "Load" })) as { id: string };
    const importToken = (
      (await owner("POST", "/api/settings/api-tokens", {
        name: "load imports",
        organization_id: orgId,
        workspace_id: imports.id,
      })) as { token: string }
    ).token;
    const members: Member[] = [];
    for (const user of signedIn) {
      const call = caller(base, user.cookie);
      await call("POST", `/api/workspaces/${workspace.id}/activate`);
      const { token } = (await call("POST", "/api/settings/api-tokens", {
        name: "load mcp",
        organization_id: orgId,
        workspace_id: workspace.id,
      })) as { token: string };
      members.push({ username: user.username, role: user.role, cookie: user.cookie, mcpToken: token });
    }
    await owner("POST", "/api/import", xml);
    if (graph) await rebuildGraph(owner);
    const types = (await owner("GET", "/api/elements/types")) as string[];
    return {
      id: orgId,
      workspaceId: workspace.id,
      importToken,
      members,
      elementCount: loadModel.elements,
      elementTypes: types,
      viewIds: Array.from({ length: loadModel.views }, (_, v) => `v-${v}`),
      nodesPerView: loadModel.nodesPerView,
      created: { elements: [], relationships: [] },
      running: { imports: 0, explores: 0 },
    };
  };
  // A few organizations at a time: sign-in hashes are costly, and the machine is shared.
  const started = performance.now();
  const out: LoadOrganization[] = [];
  for (let i = 0; i < people.length; i += 4) out.push(...(await Promise.all(people.slice(i, i + 4).map(seedOne))));
  console.log(
    `      seeded ${out.length} organizations through the gateway (workspaces, ${loadModel.elements}-element models${graph ? ", graphs" : ""}, tokens) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return out;
}

async function rebuildGraph(owner: Call) {
  const first = (await owner("POST", "/api/export/neo4j")) as { job?: { id: string; status: string }; id?: string };
  const jobId = first.job?.id;
  if (!jobId) return;
  for (let i = 0; i < 600; i++) {
    const job = (await owner("GET", `/api/export/neo4j/jobs/${jobId}`)) as { status: string; error?: string };
    if (job.status === "succeeded") return;
    if (job.status === "failed") throw new Error(`graph rebuild failed: ${job.error}`);
    await sleep(200);
  }
  throw new Error("graph rebuild did not finish in 2 minutes");
}

/** Signs every member in again (access tokens live 15 minutes; a long suite outlives them). */
export async function refreshSignIns(base: string, fleet: Fleet) {
  for (const org of fleet.organizations) {
    for (const member of org.members) member.cookie = await signIn(base, member.username);
  }
}

/**
 * Standalone: control with tenant, mcp and the graph worker in one process on PGlite (DATA_DIR), as `pnpm start`
 * runs it. PGlite belongs to one process, so the floor reads its own copy of the seeded data directory, taken while
 * the service is stopped once after seeding.
 */
export const startStandalone = (deps: Dependencies, orgCount: number) =>
  starting(async (down) => {
    const work = mkdtempSync(join(tmpdir(), "ams-load-standalone-"));
    down.add(() => keepLogs(work, "standalone"));
    const dataDir = join(work, "data");
    const seeding = await openDatabase({ dataDir: join(dataDir, "pglite") });
    const people = await seedPeople(seeding, orgCount);
    await seeding.close();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: base,
      TRUST_PROXY_HOPS: "1",
      GRAPH_REBUILD_WAIT_MS: "30000",
      ...graphEnv(deps),
    };
    const startControl = async () => {
      const service = await startService(down, "standalone", script("services/control/src/main.ts"), env, work);
      await healthy(service, base);
      return service;
    };
    let service = await startControl();
    const organizations = await seedWorkspaces(base, people, Boolean(deps.neo4j));
    await service.stop();
    cpSync(join(dataDir, "pglite"), join(work, "floor-pglite"), { recursive: true });
    service = await startControl();
    const floorPort = await freePort();
    const floor = await startService(
      down,
      "floor",
      script("bench/load-floor.ts"),
      { FLOOR_PORT: String(floorPort), FLOOR_PGLITE_DIR: join(work, "floor-pglite") },
      work,
    );
    await waitForFloor(floorPort, floor);
    const shape: RunningShape = {
      name: "standalone",
      description: "one process (control + tenant + mcp + graph worker), PGlite, in-process queue",
      base,
      floorBase: `http://127.0.0.1:${floorPort}`,
      services: [service],
      floor,
      stop: () => down.run(),
    };
    return { shape, organizations };
  });

async function waitForFloor(port: number, floor: Service) {
  await waitFor(
    "the floor server",
    async () => (await fetch(`http://127.0.0.1:${port}/w/00000000-0000-0000-0000-000000000000/relationships`)).ok,
    60_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${floor.logTail()}`);
  });
}

/**
 * Split: control, tenant and mcp as separate processes (and the graph worker when there is a Neo4j) on a fresh
 * PostgreSQL database and a NATS JetStream server of this run's own, so no other process consumes its jobs.
 */
export const startSplit = (deps: Dependencies, orgCount: number) =>
  starting(async (down) => {
    const work = mkdtempSync(join(tmpdir(), "ams-load-split-"));
    down.add(() => keepLogs(work, "split"));
    const database = await createTestDatabase(`ams_load_${process.pid}`);
    down.add(() => database.drop());
    const people = await seedPeople(database, orgCount);
    const natsPort = await freePort();
    const nats = spawn("nats-server", ["-js", "-a", "127.0.0.1", "-p", String(natsPort), "-sd", join(work, "nats")], {
      stdio: "ignore",
    });
    down.add(() => nats.kill("SIGTERM"));
    const keys = generateKeyPairSync("ed25519");
    const privatePem = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const publicPem = keys.publicKey.export({ type: "spki", format: "pem" }).toString();
    const [port, tenantPort, mcpPort, workerPort, floorPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    const base = `http://127.0.0.1:${port}`;
    const common = {
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      GRAPH_REBUILD_WAIT_MS: "30000",
      // A tree before the key pair (24 November, which `pnpm bench:compare` may run this file in) signs and verifies
      // the inter-service token with this shared secret; a tree with the key pair ignores it when the keys are given.
      TENANT_JWT_SECRET: randomBytes(32).toString("hex"),
      ...graphEnv(deps),
    };
    const verifier = { ...common, TENANT_JWT_PUBLIC_KEY: publicPem };
    const tenant = await startService(
      down,
      "tenant",
      script("services/tenant/src/main.ts"),
      { ...verifier, TENANT_PORT: String(tenantPort) },
      work,
    );
    const mcp = await startService(
      down,
      "mcp",
      script("services/mcp/src/main.ts"),
      { ...verifier, MCP_PORT: String(mcpPort) },
      work,
    );
    const control = await startService(
      down,
      "control",
      script("services/control/src/main.ts"),
      {
        ...common,
        PORT: String(port),
        PUBLIC_URL: base,
        TRUST_PROXY_HOPS: "1",
        TENANT_URL: `http://127.0.0.1:${tenantPort}`,
        MCP_URL: `http://127.0.0.1:${mcpPort}`,
        TENANT_JWT_PRIVATE_KEY: privatePem,
      },
      work,
    );
    const services = [control, tenant, mcp];
    if (deps.neo4j) {
      services.push(
        await startService(
          down,
          "graph-worker",
          script("services/graph-worker/src/main.ts"),
          { ...common, GRAPH_WORKER_PORT: String(workerPort) },
          work,
        ),
      );
    }
    for (const [service, at] of [
      [tenant, tenantPort],
      [mcp, mcpPort],
      [control, port],
    ] as const) {
      await healthy(service, `http://127.0.0.1:${at}`);
    }
    const organizations = await seedWorkspaces(base, people, Boolean(deps.neo4j));
    const floor = await startService(
      down,
      "floor",
      script("bench/load-floor.ts"),
      { FLOOR_PORT: String(floorPort), DATABASE_URL: database.url },
      work,
    );
    await waitForFloor(floorPort, floor);
    const shape: RunningShape = {
      name: "split",
      description: `${services.map((s) => s.name).join(" + ")} as separate processes, PostgreSQL, NATS JetStream`,
      base,
      floorBase: `http://127.0.0.1:${floorPort}`,
      services,
      floor,
      stop: () => down.run(),
    };
    return { shape, organizations };
  });
