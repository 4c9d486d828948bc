import { memberships, sessions, teamMembers, teams, userSelections } from "@ams/db";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * The session profile resolves the organization a request acts in in the spec's order: the API token's
 * organization; else the session's activeOrganizationId (while the user is still a member there); else the user's
 * first membership. Every forwarded request carries {organizationId, role, teamIds} in the inter-service token.
 * The session lookup is not cached here (SESSION_CACHE_SECONDS=0), so each change below is read at once.
 */
let h: Harness;
let ada: TestUser;
let first: string;
let second: string;
let third: string;
let coreTeam: string;
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";
let clients = 0;

beforeAll(async () => {
  h = await createHarness({ env: { AUTH_MODE: "session", SESSION_CACHE_SECONDS: "0" } });
  ada = await h.user("ada");
  const other = await h.user("otis");
  const orgOf = async (name: string) => (await h.org(name, [[other, "owner"]])).id;
  [first, second, third] = await Promise.all([orgOf("First"), orgOf("Second"), orgOf("Third")]);
  // Memberships in a known order: First is the first one, whatever the ids.
  const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 0, minutes));
  await h.db.insert(memberships).values([
    { organizationId: first!, userId: ada.id, role: "member", createdAt: at(1) },
    { organizationId: second!, userId: ada.id, role: "admin", createdAt: at(2) },
    { organizationId: third!, userId: ada.id, role: "owner", createdAt: at(3) },
  ]);
  for (const org of [first!, second!, third!]) await h.workspace(org);
  const [team] = await h.db.insert(teams).values({ organizationId: second!, name: "Core" }).returning();
  coreTeam = team!.id;
  await h.db.insert(teamMembers).values({ teamId: coreTeam, userId: ada.id });
}, 60_000);
afterAll(() => h.close());
beforeEach(async () => {
  await h.db.delete(userSelections).where(eq(userSelections.userId, ada.id));
});

async function signIn(user: TestUser): Promise<{ as: Credentials; sessionId: string }> {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin: ORIGIN, "x-forwarded-for": `10.8.0.${++clients}` },
  });
  expect(res.status).toBe(200);
  const as = { cookies: { [COOKIE]: cookiesOf(res)[COOKIE] ?? "" } };
  const listed = (await (await h.call("GET", "/auth/sessions", { as })).json()) as {
    sessions: { id: string; current: boolean }[];
  };
  return { as, sessionId: listed.sessions.find((s) => s.current)!.id };
}

/** The organization, role and teams the gateway forwarded for a request acting in the active organization. */
async function actingAs(as: Credentials) {
  const res = await h.call("GET", "/api/workspaces", { as });
  expect(res.status).toBe(200);
  const claims = h.recorder.last().claims!;
  return { organizationId: claims.organizationId, role: claims.role, teamIds: claims.teamIds };
}

const setSessionOrganization = (sessionId: string, organizationId: string | null) =>
  h.db.update(sessions).set({ activeOrganizationId: organizationId }).where(eq(sessions.id, sessionId));

describe("active organization in the session profile", () => {
  test("3. without a token or a session choice: the first membership", async () => {
    const { as } = await signIn(ada);
    expect(await actingAs(as)).toEqual({ organizationId: first, role: "member", teamIds: [] });
  });

  test("2. the session's activeOrganizationId comes before the first membership, with that organization's role and teams", async () => {
    const { as, sessionId } = await signIn(ada);
    await setSessionOrganization(sessionId, second!);
    expect(await actingAs(as)).toEqual({ organizationId: second, role: "admin", teamIds: [coreTeam] });
  });

  test("activating an organization through the API sets the session's activeOrganizationId; other sessions keep theirs", async () => {
    const one = await signIn(ada);
    const other = await signIn(ada);
    await setSessionOrganization(other.sessionId, second!);
    const res = await h.call("POST", `/api/organizations/${third}/activate`, {
      as: one.as,
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    const active = async (id: string) =>
      (await h.db.select({ active: sessions.activeOrganizationId }).from(sessions).where(eq(sessions.id, id)))[0]
        ?.active;
    expect(await active(one.sessionId)).toBe(third);
    expect(await active(other.sessionId)).toBe(second);
    expect((await actingAs(one.as)).organizationId).toBe(third);
    expect((await actingAs(other.as)).organizationId).toBe(second);
  });

  test("the session's choice wins over the user's stored selection", async () => {
    const { as, sessionId } = await signIn(ada);
    await h.select(ada.id, third!, null);
    await setSessionOrganization(sessionId, second!);
    expect((await actingAs(as)).organizationId).toBe(second);
  });

  test("1. an API token acts in its own organization, whatever the session or the selection says", async () => {
    const { as, sessionId } = await signIn(ada);
    await setSessionOrganization(sessionId, second!);
    const created = await h.call("POST", "/api/settings/api-tokens", {
      as,
      body: { name: "ci", organization_id: third },
      headers: { origin: ORIGIN },
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    await h.select(ada.id, first!, null);
    expect(await actingAs({ bearer: token })).toEqual({ organizationId: third, role: "owner", teamIds: [] });
    // The session itself still acts in its own choice.
    expect((await actingAs(as)).organizationId).toBe(second);
  });

  test("a session's choice of an organization the user has left no longer counts: back to the first membership", async () => {
    const { as, sessionId } = await signIn(ada);
    await setSessionOrganization(sessionId, second!);
    await h.db.delete(memberships).where(and(eq(memberships.organizationId, second!), eq(memberships.userId, ada.id)));
    try {
      expect(await actingAs(as)).toEqual({ organizationId: first, role: "member", teamIds: [] });
    } finally {
      await h.db.insert(memberships).values({ organizationId: second!, userId: ada.id, role: "admin" });
    }
  });
});
