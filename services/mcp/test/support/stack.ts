import type { AddressInfo } from "node:net";
import { createControlApp, devDefaults, parseEnv, seedAccounts } from "@ams/control";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { createGraphWorker, createMemoryQueue } from "@ams/graph";
import type { GraphDeps } from "@ams/model";
import { createServiceTokens, testLogger } from "@ams/shared";
import { runHttpService } from "@ams/shared/http";
import { createTenantApp } from "@ams/tenant";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { TestNeo4j } from "../../../../packages/graph/test/support/neo4j.ts";
import { createMcpApp } from "../../src/index.ts";

export const SECRET = "mcp-test-secret-mcp-test-secret-0123456789";

/** The demo accounts seeded by control: ArchiSurance (archi owner, contrib editor, user viewer) and Open Org (open). */
const PASSWORDS: Record<string, string> = {
  archi: devDefaults.SEED_ARCHI_PASSWORD,
  contrib: devDefaults.SEED_CONTRIB_PASSWORD,
  user: devDefaults.SEED_USER_PASSWORD,
  open: devDefaults.SEED_OPEN_PASSWORD,
};

export type HttpResult = { status: number; headers: Headers; body: any; text: string };

/**
 * The product as a client meets it: control (the gateway) wired in-process to tenant and mcp, all behind one real
 * HTTP server on a random port, over a fresh real PostgreSQL database seeded with the demo accounts.
 */
export async function startStack(
  opts: {
    mcpBodyLimit?: number;
    neo4j?: TestNeo4j["driver"];
    env?: Record<string, string>;
    /** The built browser UI to serve (apps/web/dist), for tests that drive its pages. */
    webDir?: string;
  } = {},
) {
  const database: TestDatabase = await createTestDatabase("ams_mcp");
  // With a Neo4j: graph features on, rebuilds run by a worker on an in-process queue (as standalone mode does).
  const queue = opts.neo4j ? createMemoryQueue() : undefined;
  const worker =
    opts.neo4j && queue ? createGraphWorker({ database, neo4j: opts.neo4j, queue, graceMs: 700 }) : undefined;
  await worker?.start();
  const graph: GraphDeps | undefined =
    opts.neo4j && queue ? { driver: opts.neo4j, queue, rebuildWaitMs: 60_000 } : undefined;
  const tokens = createServiceTokens(SECRET);
  const tenant = createTenantApp({ database, tokens, log: testLogger("tenant"), graph });
  const mcp = createMcpApp({
    database,
    tokens,
    log: testLogger("mcp"),
    bodyLimit: opts.mcpBodyLimit,
    graph,
  });
  // Listening first: the service's public address (PUBLIC_URL, which the OAuth metadata names) is this server's.
  // Served as control's main serves it (runHttpService: a 413 closes its connection), on a random port.
  let handle: (request: Request) => Response | Promise<Response> = () => new Response("starting", { status: 503 });
  const service = runHttpService({
    log: testLogger("http"),
    fetch: (request) => handle(request),
    port: 0,
    hostname: "127.0.0.1",
    handleSignals: false,
    drainMs: 2_000,
    close: async () => {},
  });
  await service.listening;
  // The client (undici) drops an idle connection after 4 s; Node's server after 5 s. On a loaded machine the two
  // timers run late and a request goes out on a connection the server is closing (ECONNRESET): the server here
  // keeps idle connections longer than the client ever does.
  service.server.keepAliveTimeout = 60_000;
  const base = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
  const env = parseEnv({
    NODE_ENV: "test",
    DEMO_SEED: "true",
    TENANT_JWT_SECRET: SECRET,
    PUBLIC_URL: base,
    ...opts.env,
  });
  await seedAccounts(database, env);
  const control = createControlApp({
    database,
    tokens,
    env,
    upstreams: { tenant: { fetch: async (r) => tenant.fetch(r) }, mcp: { fetch: async (r) => mcp.fetch(r) } },
    log: testLogger("control"),
    webDir: opts.webDir,
  });
  handle = control.fetch;

  async function http(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(base + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, headers: res.headers, body: parsed as any, text } satisfies HttpResult;
  }

  /** Signs in a demo account and returns a caller that sends its access cookie. */
  async function signIn(username: keyof typeof PASSWORDS & string) {
    const res = await fetch(`${base}/api/auth/local/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password: PASSWORDS[username] }),
    });
    if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .find((c) => c.startsWith("access_token="));
    if (!cookie) throw new Error("no access_token cookie");
    // A browser's write names its page's origin (the CSRF check refuses cookie writes without a trusted one).
    const as = (method: string, path: string, body?: unknown) =>
      http(method, path, { body, headers: { cookie, origin: base } });
    const orgs = await as("GET", "/api/organizations");
    const organizationId = orgs.body.organizations[0].id as string;
    return { username, organizationId, call: as };
  }

  type Session = Awaited<ReturnType<typeof signIn>>;

  /** A personal API token of the signed-in user (optionally pinned to a workspace). */
  async function apiToken(session: Session, workspaceId?: string) {
    const res = await session.call("POST", "/api/settings/api-tokens", {
      name: `mcp test ${session.username}`,
      organization_id: session.organizationId,
      ...(workspaceId ? { workspace_id: workspaceId } : {}),
    });
    if (res.status !== 201) throw new Error(`token: ${res.status} ${res.text}`);
    return { id: res.body.id as string, token: res.body.token as string };
  }

  /** REST over the gateway with a personal API token, as an API client would call it. */
  const rest = (token: string, method: string, path: string, body?: unknown) =>
    http(method, path, { body, headers: { authorization: `Bearer ${token}` } });

  /** The official SDK client over Streamable HTTP at {base_url}/mcp/. */
  async function mcpClient(token: string) {
    const client = new Client({ name: "ams-mcp-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    return client;
  }

  async function close() {
    await worker?.stop();
    await queue?.close();
    await service.shutdown("test over");
    await database.drop();
  }

  return { base, database, tokens, mcp, graph, http, signIn, apiToken, rest, mcpClient, close };
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

/** The text of a tool result's first content item. */
export const textOf = (result: unknown) => {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.find((c) => c.type === "text")?.text ?? "";
};
