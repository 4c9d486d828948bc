import { randomUUID } from "node:crypto";
import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import type { GraphProvider } from "@ams/model";
import { createServiceTokens, type OrgRole, testLogger, type Via } from "@ams/shared";
import { createTenantApp, SERVICE_TOKEN_HEADER } from "../../src/index.ts";

export const TEST_SECRET = "test-secret-test-secret-test-secret-0123";

export type Caller = {
  userId: string;
  role: OrgRole;
  organizationId: string;
  workspaceId: string | null;
  /** The way in the gateway would sign (the change log records it); none: an older token's claims. */
  via?: Via;
  displayName?: string;
};

export type Response = { status: number; body: any; headers: Headers; text: string };

/**
 * The tenant app over a fresh real PostgreSQL database. Until the control gateway signs them, tests mint the
 * inter-service tokens directly, exactly as the gateway will.
 */
export async function tenantHarness(
  opts: { database?: TestDatabase; graph?: GraphProvider; uploadLimit?: number } = {},
) {
  const database: TestDatabase = opts.database ?? (await createTestDatabase("ams_tenant"));
  const tokens = createServiceTokens(TEST_SECRET);
  const app = createTenantApp({
    database,
    tokens,
    graph: opts.graph,
    uploadLimit: opts.uploadLimit,
    log: testLogger("tenant"),
  });

  async function call(
    caller: Caller | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const h: Record<string, string> = { ...headers };
    if (caller) {
      h[SERVICE_TOKEN_HEADER] = await tokens.sign(
        {
          userId: caller.userId,
          username: caller.userId,
          organizationId: caller.organizationId,
          workspaceId: caller.workspaceId,
          role: caller.role,
          platformAdmin: false,
          apiTokenId: caller.via?.kind === "api_token" ? `token-${caller.userId}` : null,
          ...(caller.via ? { via: caller.via } : {}),
          ...(caller.displayName ? { displayName: caller.displayName } : {}),
        },
        "tenant",
      );
    }
    let payload: BodyInit | undefined;
    if (typeof body === "string") payload = body;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !h["content-type"]) h["content-type"] = "application/json";
    const res = await app.request(path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, body: parsed as any, headers: res.headers, text } satisfies Response;
  }

  /** An organization with a workspace and one caller per role (owner, editor, viewer). */
  async function organization() {
    const orgId = randomUUID();
    await database.rows(
      sql`insert into organizations (id, slug, name) values (${orgId}, ${`org-${orgId}`}, 'Test org')`,
    );
    const owner: Caller = { userId: `owner-${orgId}`, role: "owner", organizationId: orgId, workspaceId: null };
    const created = await call(owner, "POST", "/api/workspaces", { name: "Main" });
    if (created.status !== 201) throw new Error(`workspace creation failed: ${created.text}`);
    const workspaceId = created.body.id as string;
    const as = (role: OrgRole): Caller => ({ userId: `${role}-${orgId}`, role, organizationId: orgId, workspaceId });
    const client = (caller: Caller) => ({
      caller,
      get: (p: string) => call(caller, "GET", p),
      post: (p: string, b?: unknown, hd?: Record<string, string>) => call(caller, "POST", p, b, hd),
      put: (p: string, b?: unknown, hd?: Record<string, string>) => call(caller, "PUT", p, b, hd),
      delete: (p: string, hd?: Record<string, string>) => call(caller, "DELETE", p, undefined, hd),
    });
    return {
      orgId,
      workspaceId,
      owner: client(as("owner")),
      editor: client(as("editor")),
      viewer: client(as("viewer")),
      client,
    };
  }

  return { app, database, tokens, call, organization, close: () => database.drop() };
}

export type TenantHarness = Awaited<ReturnType<typeof tenantHarness>>;
export type OrgFixture = Awaited<ReturnType<TenantHarness["organization"]>>;
