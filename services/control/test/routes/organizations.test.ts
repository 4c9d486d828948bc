import { userSelections } from "@ams/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

let h: Harness;
let owner: TestUser;
let viewer: TestUser;
let outsider: TestUser;
let admin: TestUser;
let ownerSession: Credentials;
let viewerSession: Credentials;
let outsiderSession: Credentials;
let adminSession: Credentials;
let org: { id: string };

beforeAll(async () => {
  h = await createHarness();
  owner = await h.user("oscar");
  viewer = await h.user("vera");
  outsider = await h.user("otto");
  admin = await h.user("ada", { platformAdmin: true });
  org = await h.org("Orgs", [
    [owner, "owner"],
    [viewer, "viewer"],
  ]);
  [ownerSession, viewerSession, outsiderSession, adminSession] = await Promise.all([
    h.session(owner),
    h.session(viewer),
    h.session(outsider),
    h.session(admin),
  ]);
});
afterAll(() => h.close());

describe("GET /api/organizations", () => {
  test("lists the caller's organizations with role and the active one", async () => {
    const second = await h.org("Beta", [[viewer, "editor"]]);
    const ws = await h.workspace(second.id);
    await h.select(viewer.id, second.id, ws.id);
    const body = await (await h.call("GET", "/api/organizations", { as: viewerSession })).json();
    expect(body.active_organization_id).toBe(second.id);
    const byId = Object.fromEntries(body.organizations.map((o: { id: string }) => [o.id, o]));
    expect(byId[org.id]).toMatchObject({ name: "Orgs", role: "viewer", active: false, enabled: true });
    expect(byId[second.id]).toMatchObject({ name: "Beta", role: "editor", active: true, is_personal: false });
  });

  test("is empty for an Admin without membership and for a user without one", async () => {
    for (const as of [adminSession, outsiderSession]) {
      const body = await (await h.call("GET", "/api/organizations", { as })).json();
      expect(body).toEqual({ organizations: [], active_organization_id: null });
    }
  });
});

describe("POST /api/organizations/:id/activate", () => {
  test("writes the selection with the organization's first workspace, or none", async () => {
    const empty = await h.org("Empty", [[owner, "owner"]]);
    const res = await h.call("POST", `/api/organizations/${empty.id}/activate`, { as: ownerSession });
    expect(await res.json()).toEqual({ organization_id: empty.id, workspace_id: null });
    const first = await h.workspace(org.id, "A");
    await h.workspace(org.id, "B");
    const again = await h.call("POST", `/api/organizations/${org.id}/activate`, { as: ownerSession });
    expect(await again.json()).toEqual({ organization_id: org.id, workspace_id: first.id });
    const [sel] = await h.db.select().from(userSelections).where(eq(userSelections.userId, owner.id));
    expect(sel).toMatchObject({ organizationId: org.id, workspaceId: first.id });
    await h.call("GET", "/api/elements", { as: ownerSession });
    expect(h.recorder.last().claims).toMatchObject({ organizationId: org.id, workspaceId: first.id });
  });

  test("404 for a non-member (existing or not), 403 when suspended", async () => {
    expect((await h.call("POST", `/api/organizations/${org.id}/activate`, { as: outsiderSession })).status).toBe(404);
    expect(
      (await h.call("POST", `/api/organizations/${crypto.randomUUID()}/activate`, { as: ownerSession })).status,
    ).toBe(404);
    expect((await h.call("POST", "/api/organizations/not-a-uuid/activate", { as: ownerSession })).status).toBe(404);
    const suspended = await h.org("Suspended", [[owner, "owner"]], false);
    expect((await h.call("POST", `/api/organizations/${suspended.id}/activate`, { as: ownerSession })).status).toBe(
      403,
    );
  });
});

describe("PUT /api/organizations/:id", () => {
  test("owner renames; viewer 403; outsider 404; Admin without membership 404", async () => {
    const rename = (as: Credentials, name: string) =>
      h.call("PUT", `/api/organizations/${org.id}`, { as, body: { name } });
    const ok = await rename(ownerSession, "Renamed");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: org.id, name: "Renamed" });
    expect((await rename(viewerSession, "Nope")).status).toBe(403);
    expect((await rename(outsiderSession, "Nope")).status).toBe(404);
    expect((await rename(adminSession, "Nope")).status).toBe(404);
    expect((await rename(ownerSession, "   ")).status).toBe(422);
  });
});

describe("members", () => {
  test("viewers list members with username and role", async () => {
    const res = await h.call("GET", `/api/organizations/${org.id}/members`, { as: viewerSession });
    expect(res.status).toBe(200);
    const members = await res.json();
    expect(members).toContainEqual({ userId: owner.id, username: "oscar", name: "oscar", role: "owner" });
    expect(members).toContainEqual({ userId: viewer.id, username: "vera", name: "vera", role: "viewer" });
  });

  test("owner adds an existing account by username; unknown 422; duplicate 409; viewer 403", async () => {
    const newbie = await h.user("nina");
    const add = (as: Credentials, body: unknown) =>
      h.call("POST", `/api/organizations/${org.id}/members`, { as, body });
    const res = await add(ownerSession, { username: "NINA", role: "editor" });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ userId: newbie.id, username: "nina", role: "editor" });
    expect((await add(ownerSession, { username: "ghost", role: "viewer" })).status).toBe(422);
    expect((await add(ownerSession, { username: "nina", role: "viewer" })).status).toBe(409);
    expect((await add(ownerSession, { username: "otto", role: "admin" })).status).toBe(422);
    expect((await add(viewerSession, { username: "otto", role: "viewer" })).status).toBe(403);
  });

  test("the last owner can be neither demoted nor removed (409), whoever asks", async () => {
    const solo = await h.org("Solo", [
      [owner, "owner"],
      [viewer, "viewer"],
    ]);
    const demote = await h.call("PUT", `/api/organizations/${solo.id}/members/${owner.id}`, {
      as: ownerSession,
      body: { role: "editor" },
    });
    expect(demote.status).toBe(409);
    expect((await demote.json()).code).toBe("CONFLICT");
    expect(
      (await h.call("DELETE", `/api/organizations/${solo.id}/members/${owner.id}`, { as: ownerSession })).status,
    ).toBe(409);
    // Admin through the platform routes gets the same answer.
    expect(
      (
        await h.call("PUT", `/api/platform/organizations/${solo.id}/members/${owner.id}`, {
          as: adminSession,
          body: { role: "viewer" },
        })
      ).status,
    ).toBe(409);
    expect(
      (await h.call("DELETE", `/api/platform/organizations/${solo.id}/members/${owner.id}`, { as: adminSession }))
        .status,
    ).toBe(409);

    // With a second owner, the first may step down or leave (self-removal).
    await h.call("PUT", `/api/organizations/${solo.id}/members/${viewer.id}`, {
      as: ownerSession,
      body: { role: "owner" },
    });
    expect(
      (await h.call("DELETE", `/api/organizations/${solo.id}/members/${owner.id}`, { as: ownerSession })).status,
    ).toBe(204);
    expect((await h.call("GET", `/api/organizations/${solo.id}/members`, { as: ownerSession })).status).toBe(404);
  });

  test("two owners demoting each other at once leave one owner", async () => {
    const a = await h.user("twin-a");
    const b = await h.user("twin-b");
    const duo = await h.org("Duo", [
      [a, "owner"],
      [b, "owner"],
    ]);
    const [sa, sb] = await Promise.all([h.session(a), h.session(b)]);
    const results = await Promise.all([
      h.call("PUT", `/api/organizations/${duo.id}/members/${b.id}`, { as: sa, body: { role: "viewer" } }),
      h.call("PUT", `/api/organizations/${duo.id}/members/${a.id}`, { as: sb, body: { role: "viewer" } }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    // Either one demotion wins and the other is refused (409), or it runs after losing the owner role (403).
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const members = await (
      await h.call("GET", `/api/platform/organizations/${duo.id}/members`, { as: adminSession })
    ).json();
    expect(members.filter((m: { role: string }) => m.role === "owner")).toHaveLength(1);
  });

  test("unknown member 404; non-member caller 404", async () => {
    expect(
      (
        await h.call("PUT", `/api/organizations/${org.id}/members/nobody`, {
          as: ownerSession,
          body: { role: "viewer" },
        })
      ).status,
    ).toBe(404);
    expect((await h.call("GET", `/api/organizations/${org.id}/members`, { as: outsiderSession })).status).toBe(404);
  });
});
