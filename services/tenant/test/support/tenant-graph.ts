import { randomUUID } from "node:crypto";
import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { createGraphWorker, createMemoryQueue } from "@ams/graph-worker";
import type { GraphDeps } from "@ams/model";
import { createServiceTokens, type OrgRole } from "@ams/shared";
import type { TestNeo4j } from "../../../graph-worker/test/support/neo4j.ts";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "../../src/index.ts";

const SECRET = "graph-test-secret-graph-test-secret-0123";
export type Caller = { userId: string; role: OrgRole; organizationId: string; workspaceId: string | null };
export type Reply = { status: number; body: any; text: string; headers: Headers };

/**
 * The tenant app over a fresh real PostgreSQL database with graph features on: the given Neo4j, an in-process job
 * queue and a worker. Callers' inter-service tokens are minted the way the control gateway signs them.
 */
export async function graphTenant(n4j: TestNeo4j, opts: { graph?: Partial<GraphDeps>; withGraph?: boolean } = {}) {
  const database: TestDatabase = await createTestDatabase("ams_tenant_graph");
  const tokens = createServiceTokens(SECRET);
  const queue = createMemoryQueue();
  const worker = createGraphWorker({ database, neo4j: n4j.driver, queue, graceMs: 700 });
  await worker.start();
  const graph: GraphDeps = { driver: n4j.driver, queue, rebuildWaitMs: 60_000, ...opts.graph };
  const app = createTenantApp({
    database,
    tokens,
    graph: opts.withGraph === false ? undefined : graph,
    log: process.env.TEST_LOG ? console.error : () => {},
  });

  async function call(caller: Caller | null, method: string, path: string, body?: unknown): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (caller) {
      headers[SERVICE_TOKEN_HEADER] = await tokens.sign(
        {
          userId: caller.userId,
          username: caller.userId,
          organizationId: caller.organizationId,
          workspaceId: caller.workspaceId,
          role: caller.role,
          platformAdmin: false,
          apiTokenId: null,
        },
        "tenant",
      );
    }
    let payload: string | undefined;
    if (typeof body === "string") {
      payload = body;
      headers["content-type"] = "application/xml";
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    const res = await app.request(path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  const client = (caller: Caller) => ({
    caller,
    get: (p: string) => call(caller, "GET", p),
    post: (p: string, b?: unknown) => call(caller, "POST", p, b),
    put: (p: string, b?: unknown) => call(caller, "PUT", p, b),
    delete: (p: string) => call(caller, "DELETE", p),
  });

  /** An organization with a workspace (optionally importing `xml`) and a client per role. */
  async function organization(xml?: string) {
    const orgId = randomUUID();
    await database.rows(
      sql`insert into organizations (id, slug, name) values (${orgId}, ${`org-${orgId}`}, 'Graph org')`,
    );
    const owner: Caller = { userId: `owner-${orgId}`, role: "owner", organizationId: orgId, workspaceId: null };
    const created = await call(owner, "POST", "/api/workspaces", { name: "Main" });
    if (created.status !== 201) throw new Error(`workspace creation failed: ${created.text}`);
    const workspaceId = created.body.id as string;
    const as = (role: OrgRole, ws = workspaceId) =>
      client({ userId: `${role}-${orgId}`, role, organizationId: orgId, workspaceId: ws });
    if (xml) {
      const imported = await as("owner").post("/api/import", xml);
      if (imported.status !== 200) throw new Error(`import failed: ${imported.text}`);
    }
    return { orgId, workspaceId, owner: as("owner"), editor: as("editor"), viewer: as("viewer"), as };
  }

  return {
    app,
    database,
    graph,
    call,
    organization,
    async close() {
      await worker.stop();
      await queue.close();
      await database.drop();
    },
  };
}
export type GraphTenant = Awaited<ReturnType<typeof graphTenant>>;
