import { silentLogger } from "@ams/shared";
import { createTenantApp } from "@ams/tenant";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { type Entry, failSignIn, ORIGIN, type Profile, signIn } from "./support.ts";

/**
 * GET /api/platform/audit and GET /api/organizations/:id/audit in both profiles, through the real gateway into the
 * real tenant (workspace events), on real PostgreSQL.
 */
describe.each<Profile>(["local", "session"])("audit listings (AUTH_MODE=%s)", (profile) => {
  let h: Harness;
  let root: TestUser;
  let owner: TestUser;
  let second: TestUser;
  let outsider: TestUser;
  let rootAs: Credentials;
  let ownerAs: Credentials;
  let secondAs: Credentials;
  let outsiderAs: Credentials;
  let orgId: string;
  let otherOrgId: string;
  const secondRole = profile === "local" ? "editor" : "member";

  const get = async (path: string, as: Credentials) => {
    const res = await h.call("GET", path, { as });
    return { status: res.status, body: await res.json() };
  };
  const write = (method: string, path: string, as: Credentials, body?: unknown) =>
    h.call(method, path, { as, body, headers: { origin: ORIGIN, "x-forwarded-for": "198.51.100.20" } });

  beforeAll(async () => {
    h = await createHarness({
      env: { AUTH_MODE: profile },
      tenant: ({ database, tokens }) => createTenantApp({ database, tokens, log: silentLogger }),
    });
    root = await h.user("root", { platformAdmin: true });
    owner = await h.user("olga");
    second = await h.user("sven");
    outsider = await h.user("xena");
    orgId = (await h.org("Audit Org", [[owner, "owner"]])).id;
    otherOrgId = (await h.org("Other Org", [[outsider, "owner"]])).id;
    rootAs = await signIn(h, profile, root);
    ownerAs = await signIn(h, profile, owner, "203.0.113.50");
    outsiderAs = await signIn(h, profile, outsider);
    expect(await failSignIn(h, profile, "sven", "203.0.113.66")).toBe(401);
    // The organization's own events, by its owner.
    expect(
      (await write("POST", `/api/organizations/${orgId}/members`, ownerAs, { username: "sven", role: secondRole }))
        .status,
    ).toBe(201);
    secondAs = await signIn(h, profile, second);
    const invite = await write("POST", `/api/organizations/${orgId}/invitations`, ownerAs, {
      email: "newbie@test.example",
      role: secondRole,
      delivery_mode: "manual",
    });
    expect(invite.status).toBe(201);
    const ws = await write("POST", "/api/workspaces", ownerAs, { name: "Landscape", organization_id: orgId });
    expect(ws.status).toBe(201);
    const wsId = (await ws.json()).id;
    expect((await write("PUT", `/api/workspaces/${wsId}`, ownerAs, { name: "Landscape 2026" })).status).toBe(200);
    expect((await write("DELETE", `/api/workspaces/${wsId}`, ownerAs)).status).toBe(204);
    const token = await write("POST", "/api/settings/api-tokens", ownerAs, { organization_id: orgId, name: "ci" });
    expect(token.status).toBe(201);
    expect((await write("DELETE", `/api/settings/api-tokens/${(await token.json()).id}`, ownerAs)).status).toBe(204);
    // Another organization's event, which the first organization's audit must not show.
    expect(
      (
        await write("POST", `/api/organizations/${otherOrgId}/members`, outsiderAs, {
          username: "sven",
          role: secondRole,
        })
      ).status,
    ).toBe(201);
  }, 90_000);
  afterAll(() => h.close());

  test("the platform admin lists every event newest first; others get 403, no credentials 401", async () => {
    const { status, body } = await get("/api/platform/audit", rootAs);
    expect(status).toBe(200);
    const kinds = (body.items as Entry[]).map((e) => e.kind);
    for (const kind of [
      "sign_in.succeeded",
      "sign_in.failed",
      "member.added",
      "invitation.created",
      "workspace.created",
      "workspace.renamed",
      "workspace.deleted",
      "api_token.created",
      "api_token.revoked",
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    const ids = (body.items as Entry[]).map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const failed = (body.items as Entry[]).find((e) => e.kind === "sign_in.failed");
    expect(failed).toMatchObject({ actor: null, target: { id: second.id, name: "sven" }, address: "203.0.113.66" });
    const renamed = (body.items as Entry[]).find((e) => e.kind === "workspace.renamed");
    expect(renamed).toMatchObject({
      actor: { id: owner.id, name: "olga" },
      organization: { id: orgId, name: "Audit Org" },
      address: "198.51.100.20",
      details: { from: "Landscape", to: "Landscape 2026" },
    });
    expect((await get("/api/platform/audit", ownerAs)).status).toBe(403);
    expect((await h.call("GET", "/api/platform/audit")).status).toBe(401);
  });

  test("filters by user, kind and time range, and pages by keyset without gaps or repeats", async () => {
    const byUser = (await get("/api/platform/audit?user=sven", rootAs)).body.items as Entry[];
    expect(byUser.length).toBeGreaterThan(0);
    for (const e of byUser) expect([e.actor?.id, e.target?.id]).toContain(second.id);
    const byKind = (await get("/api/platform/audit?kind=workspace.created,workspace.deleted", rootAs)).body
      .items as Entry[];
    expect(byKind.map((e) => e.kind).sort()).toEqual(["workspace.created", "workspace.deleted"]);
    const future = (await get("/api/platform/audit?from=2999-01-01T00:00:00Z", rootAs)).body.items;
    expect(future).toEqual([]);
    const past = (await get("/api/platform/audit?to=2000-01-01T00:00:00Z", rootAs)).body.items;
    expect(past).toEqual([]);

    const all = ((await get("/api/platform/audit?limit=200", rootAs)).body.items as Entry[]).map((e) => e.id);
    const paged: number[] = [];
    let before: number | null = null;
    do {
      const page: { items: Entry[]; next_before: number | null } = (
        await get(`/api/platform/audit?limit=3${before ? `&before=${before}` : ""}`, rootAs)
      ).body;
      expect(page.items.length).toBeLessThanOrEqual(3);
      paged.push(...page.items.map((e) => e.id));
      before = page.next_before;
    } while (before !== null);
    expect(paged).toEqual(all);
  });

  test("bad filters answer 422 naming the field", async () => {
    const cases: [string, string][] = [
      ["kind=sign_in.nope", "kind"],
      ["from=yesterday", "from"],
      ["from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "to"],
      ["limit=0", "limit"],
      ["before=-4", "before"],
    ];
    for (const [qs, field] of cases) {
      const res = await h.call("GET", `/api/platform/audit?${qs}`, { as: rootAs });
      expect(res.status, qs).toBe(422);
      const problem = await res.json();
      expect(JSON.stringify(problem.errors), qs).toContain(field);
    }
  });

  test("the organization's audit shows its own events to its owner only: 403 to a lesser role, 404 to another organization", async () => {
    const { status, body } = await get(`/api/organizations/${orgId}/audit`, ownerAs);
    expect(status).toBe(200);
    const items = body.items as Entry[];
    expect(items.every((e) => e.organization?.id === orgId)).toBe(true);
    expect(items.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        "member.added",
        "invitation.created",
        "workspace.created",
        "workspace.renamed",
        "workspace.deleted",
        "api_token.created",
        "api_token.revoked",
      ]),
    );
    expect(items.find((e) => e.kind === "invitation.created")?.details).toMatchObject({ email: "newbie@test.example" });
    expect(items.some((e) => e.kind.startsWith("sign_in."))).toBe(false);
    expect((await get(`/api/organizations/${orgId}/audit`, secondAs)).status).toBe(403);
    expect((await get(`/api/organizations/${orgId}/audit`, outsiderAs)).status).toBe(404);
    const filtered = (await get(`/api/organizations/${orgId}/audit?kind=member.added`, ownerAs)).body.items as Entry[];
    expect(filtered.map((e) => e.target?.name)).toEqual(["sven"]);
  });
});
