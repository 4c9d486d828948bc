import { userSelections } from "@ams/db";
import { silentLogger } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createControlApp } from "../src/app.ts";
import { type Credentials, createHarness, type Harness, setCookieLine, type TestUser } from "./support/harness.ts";

/** Control with the real tenant behind its gateway, in process, on one real PostgreSQL database. */
let h: Harness;
let owner: TestUser;
let editor: TestUser;
let org: { id: string };

beforeAll(async () => {
  h = await createHarness({
    env: { PUBLIC_URL: "https://models.example.com" },
    tenant: ({ database, tokens }) => {
      const tenant = createTenantApp({ database, tokens });
      return { fetch: (req) => tenant.fetch(req) };
    },
  });
  owner = await h.user("olga");
  editor = await h.user("edgar");
  org = await h.org("Hardening Ltd", [
    [owner, "owner"],
    [editor, "editor"],
  ]);
});
afterAll(() => h?.close());

const json = async (res: Response) => (res.status === 204 ? null : res.json());

async function createWorkspace(as: Credentials, name: string): Promise<string> {
  const res = await h.call("POST", "/api/workspaces", { as, body: { name } });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

describe("cookies and sign-out", () => {
  test("cookies are Secure when PUBLIC_URL is https, though the proxy's hop to us is plain http", async () => {
    const { res } = await h.login(owner);
    expect(res.status).toBe(200);
    for (const name of ["access_token", "refresh_token", "auth_provider"]) {
      expect(setCookieLine(res, name)).toMatch(/;\s*Secure/i);
    }
  });

  test("sign-out ends the access token at once here, and on every other replica when PostgreSQL's announcement arrives", async () => {
    const session = await h.session(owner);
    // A second control replica on the same database (as in a scaled-out deployment).
    const replica = createControlApp({
      database: h.database,
      tokens: h.tokens,
      env: h.env,
      clock: h.clock.now,
      upstreams: { tenant: h.recorder },
      log: silentLogger,
    });
    const cookie = Object.entries((session as { cookies: Record<string, string> }).cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join("; ");
    const meOnReplica = () => replica.request("http://control.test/api/auth/me", { headers: { cookie } });
    expect((await h.call("GET", "/api/auth/me", { as: session })).status).toBe(200);
    expect((await meOnReplica()).status).toBe(200);

    const out = await h.call("POST", "/api/auth/logout", { as: session });
    expect(out.status).toBe(302);
    expect((await h.call("GET", "/api/auth/me", { as: session })).status).toBe(401);
    // No clock moves: the replica forgets what it remembered when the NOTIFY of the revocation reaches it.
    await vi.waitFor(async () => expect((await meOnReplica()).status).toBe(401), { timeout: 2000, interval: 20 });
  });
});

describe("deleting a workspace", () => {
  test("moves every other member whose active workspace it was to another one of the organization", async () => {
    const ownerSession = await h.session(owner);
    const editorSession = await h.session(editor);
    const keep = await createWorkspace(ownerSession, "Keep");
    const doomed = await createWorkspace(ownerSession, "Doomed");
    expect((await h.call("POST", `/api/workspaces/${doomed}/activate`, { as: editorSession })).status).toBe(200);
    expect((await json(await h.call("GET", "/api", { as: editorSession }))).workspace.id).toBe(doomed);

    expect((await h.call("DELETE", `/api/workspaces/${doomed}`, { as: ownerSession })).status).toBe(204);
    const info = await json(await h.call("GET", "/api", { as: editorSession }));
    expect(info.workspace?.id).toBeDefined();
    expect(info.workspace.id).not.toBe(doomed);
    const listed = (await json(await h.call("GET", "/api/workspaces", { as: editorSession }))) as { id: string }[];
    expect(listed.map((w) => w.id)).toContain(keep);
  });
});

describe("a workspace-pinned API token is confined to its workspace", () => {
  test("it cannot create workspaces, list others, or move its owner's active workspace", async () => {
    const ownerSession = await h.session(owner);
    const pinned = await createWorkspace(ownerSession, "Pinned");
    const other = await createWorkspace(ownerSession, "Other");
    // The owner works in "Other" interactively.
    expect((await h.call("POST", `/api/workspaces/${other}/activate`, { as: ownerSession })).status).toBe(200);
    const created = await h.call("POST", "/api/settings/api-tokens", {
      as: ownerSession,
      body: { organization_id: org.id, workspace_id: pinned, name: "pinned" },
    });
    expect(created.status).toBe(201);
    const bearer: Credentials = { bearer: (await created.json()).token };

    const create = await h.call("POST", "/api/workspaces", { as: bearer, body: { name: "Sneaky" } });
    expect(create.status).toBe(403);
    expect((await create.json()).detail).toMatch(/pinned to one workspace/);

    const listed = (await json(await h.call("GET", "/api/workspaces", { as: bearer }))) as { id: string }[];
    expect(listed.map((w) => w.id)).toEqual([pinned]);

    expect((await h.call("POST", `/api/workspaces/${other}/activate`, { as: bearer })).status).toBe(404);
    expect((await h.call("POST", `/api/workspaces/${pinned}/activate`, { as: bearer })).status).toBe(200);
    const [selection] = await h.db.select().from(userSelections).where(eq(userSelections.userId, owner.id));
    expect(selection?.workspaceId).toBe(other);
  });
});
