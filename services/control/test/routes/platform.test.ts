import { apiTokens, elements, memberships, organizations, userSelections, workspaces } from "@ams/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

let h: Harness;
let admin: TestUser;
let owner: TestUser;
let adminSession: Credentials;
let ownerSession: Credentials;

beforeAll(async () => {
  h = await createHarness();
  admin = await h.user("root", { platformAdmin: true });
  owner = await h.user("petra");
  [adminSession, ownerSession] = await Promise.all([h.session(admin), h.session(owner)]);
});
afterAll(() => h.close());

describe("platform organizations", () => {
  test("non-Admin gets 403 on every platform route; no credentials 401", async () => {
    const id = crypto.randomUUID();
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/platform/organizations"],
      ["POST", "/api/platform/organizations", { name: "X" }],
      ["PUT", `/api/platform/organizations/${id}`, { enabled: false }],
      ["DELETE", `/api/platform/organizations/${id}`],
      ["GET", `/api/platform/organizations/${id}/members`],
      ["POST", `/api/platform/organizations/${id}/members`, { username: "petra", role: "owner" }],
      ["PUT", `/api/platform/organizations/${id}/members/x`, { role: "owner" }],
      ["DELETE", `/api/platform/organizations/${id}/members/x`],
    ];
    for (const [method, path, body] of routes) {
      expect((await h.call(method, path, { as: ownerSession, body })).status, `${method} ${path}`).toBe(403);
      expect((await h.call(method, path, { body })).status, `${method} ${path}`).toBe(401);
    }
  });

  test("creates with a derived or explicit slug and an optional owner; 409 on a taken slug", async () => {
    const res = await h.call("POST", "/api/platform/organizations", {
      as: adminSession,
      body: { name: "Ünïcode & Co", owner_username: "petra" },
    });
    expect(res.status).toBe(201);
    const org = await res.json();
    expect(org).toMatchObject({ name: "Ünïcode & Co", slug: "unicode-co", enabled: true, is_personal: false });
    const members = await (await h.call("GET", `/api/organizations/${org.id}/members`, { as: ownerSession })).json();
    expect(members).toEqual([{ userId: owner.id, username: "petra", name: "petra", role: "owner" }]);

    const twin = await (
      await h.call("POST", "/api/platform/organizations", { as: adminSession, body: { name: "Unicode Co" } })
    ).json();
    expect(twin.slug).toBe("unicode-co-2");
    const taken = await h.call("POST", "/api/platform/organizations", {
      as: adminSession,
      body: { name: "Another", slug: "unicode-co" },
    });
    expect(taken.status).toBe(409);
    const badOwner = await h.call("POST", "/api/platform/organizations", {
      as: adminSession,
      body: { name: "Nobody's", owner_username: "ghost" },
    });
    expect(badOwner.status).toBe(422);
    const badSlug = await h.call("POST", "/api/platform/organizations", {
      as: adminSession,
      body: { name: "Bad", slug: "Not A Slug" },
    });
    expect(badSlug.status).toBe(422);

    const list = await (await h.call("GET", "/api/platform/organizations", { as: adminSession })).json();
    expect(list.map((o: { slug: string }) => o.slug)).toEqual(expect.arrayContaining(["unicode-co", "unicode-co-2"]));
    expect(Object.keys(list[0]).sort()).toEqual([
      "assistants_write_to_drafts",
      "created_at",
      "draft_approvals_required",
      "enabled",
      "id",
      "is_personal",
      "name",
      "require_two_factor",
      "slug",
    ]);
  });

  test("suspends and reactivates without touching data; members get 403 meanwhile, even Admin as owner", async () => {
    const org = await h.org("Suspendable", [
      [owner, "owner"],
      [admin, "owner"],
    ]);
    const ws = await h.workspace(org.id);
    await h.select(owner.id, org.id, ws.id);
    await h.select(admin.id, org.id, ws.id);
    const suspend = await h.call("PUT", `/api/platform/organizations/${org.id}`, {
      as: adminSession,
      body: { enabled: false },
    });
    expect(await suspend.json()).toMatchObject({ enabled: false });
    expect((await h.call("GET", "/api/elements", { as: ownerSession })).status).toBe(403);
    expect((await h.call("GET", "/api/elements", { as: adminSession })).status).toBe(403);
    expect((await h.call("GET", `/api/organizations/${org.id}/members`, { as: ownerSession })).status).toBe(403);
    // Admin still administers it through the platform routes.
    expect((await h.call("GET", `/api/platform/organizations/${org.id}/members`, { as: adminSession })).status).toBe(
      200,
    );
    const [still] = await h.db.select().from(workspaces).where(eq(workspaces.id, ws.id));
    expect(still).toBeTruthy();

    await h.call("PUT", `/api/platform/organizations/${org.id}`, { as: adminSession, body: { enabled: true } });
    expect((await h.call("GET", "/api/elements", { as: ownerSession })).status).toBe(200);
    expect(
      (
        await h.call("PUT", `/api/platform/organizations/${crypto.randomUUID()}`, {
          as: adminSession,
          body: { enabled: true },
        })
      ).status,
    ).toBe(404);
  });

  test("delete cascades to workspaces, model data, members and tokens", async () => {
    const org = await h.org("Doomed", [[owner, "owner"]]);
    const ws = await h.workspace(org.id);
    // Straight into the table, unrecorded (change capture off): the model's verbs would log it in a change group.
    await h.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('ams.capture', 'off', true)`);
      await tx.insert(elements).values({ workspaceId: ws.id, id: "id-1", ord: 0, type: "Node", name: "n" });
    });
    await h.select(owner.id, org.id, ws.id);
    const token = await (
      await h.call("POST", "/api/settings/api-tokens", { as: ownerSession, body: { organization_id: org.id } })
    ).json();
    const res = await h.call("DELETE", `/api/platform/organizations/${org.id}`, { as: adminSession });
    expect(res.status).toBe(204);
    expect(await h.db.select().from(organizations).where(eq(organizations.id, org.id))).toEqual([]);
    expect(await h.db.select().from(workspaces).where(eq(workspaces.id, ws.id))).toEqual([]);
    expect(await h.db.select().from(elements).where(eq(elements.workspaceId, ws.id))).toEqual([]);
    expect(await h.db.select().from(memberships).where(eq(memberships.organizationId, org.id))).toEqual([]);
    expect(await h.db.select().from(apiTokens).where(eq(apiTokens.id, token.id))).toEqual([]);
    const [sel] = await h.db.select().from(userSelections).where(eq(userSelections.userId, owner.id));
    expect(sel).toMatchObject({ organizationId: null, workspaceId: null });
    expect((await h.call("GET", "/api/elements", { as: { bearer: token.token } })).status).toBe(401);
    expect((await h.call("DELETE", `/api/platform/organizations/${org.id}`, { as: adminSession })).status).toBe(404);
  });

  test("member management: Admin may add itself, which is what grants content access", async () => {
    const admin = await h.user("root2", { platformAdmin: true });
    const adminSession = await h.session(admin);
    const org = await h.org("Managed", [[owner, "owner"]]);
    await h.workspace(org.id);
    expect((await h.call("POST", `/api/organizations/${org.id}/activate`, { as: adminSession })).status).toBe(404);
    const add = await h.call("POST", `/api/platform/organizations/${org.id}/members`, {
      as: adminSession,
      body: { username: "root2", role: "viewer" },
    });
    expect(add.status).toBe(201);
    expect((await h.call("POST", `/api/organizations/${org.id}/activate`, { as: adminSession })).status).toBe(200);
    expect((await h.call("GET", "/api/elements", { as: adminSession })).status).toBe(200);
    expect(h.recorder.last().claims).toMatchObject({ role: "viewer", platformAdmin: true, organizationId: org.id });
    expect((await h.call("POST", "/api/elements", { as: adminSession, body: {} })).status).toBe(403);
    const upd = await h.call("PUT", `/api/platform/organizations/${org.id}/members/${admin.id}`, {
      as: adminSession,
      body: { role: "editor" },
    });
    expect(await upd.json()).toMatchObject({ role: "editor" });
    expect(
      (await h.call("DELETE", `/api/platform/organizations/${org.id}/members/${admin.id}`, { as: adminSession }))
        .status,
    ).toBe(204);
    expect((await h.call("GET", "/api/elements", { as: adminSession })).status).toBe(404);
    expect(
      (await h.call("GET", `/api/platform/organizations/${crypto.randomUUID()}/members`, { as: adminSession })).status,
    ).toBe(404);
  });
});
