import { accounts } from "@ams/db";
import { must } from "@ams/shared/testing";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, cookie, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";
import { firstRow } from "../support/rows.ts";

/** AUTH_MODE=session: better-auth's username sign-in and session cookie in front of the same gateway. */
let h: Harness;
let owner: TestUser;
let member: TestUser;
let root: TestUser;
let orgId: string;
let suspendedId: string;
let workspaceId: string;
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";

beforeAll(async () => {
  h = await createHarness({
    env: { AUTH_MODE: "session", TRUSTED_ORIGINS: "https://app.example.com", SESSION_CACHE_SECONDS: "5" },
  });
  owner = await h.user("olivia");
  member = await h.user("mark");
  root = await h.user("root", { platformAdmin: true });
  const org = await h.org("Acme", [
    [owner, "owner"],
    [member, "member"],
  ]);
  orgId = org.id;
  workspaceId = (await h.workspace(org.id)).id;
  suspendedId = (await h.org("Frozen", [[owner, "owner"]], false)).id;
  await h.workspace(suspendedId);
});
afterAll(() => h.close());

async function signIn(user: TestUser, password = user.password) {
  return h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password },
    headers: { origin: ORIGIN },
  });
}

async function session(user: TestUser): Promise<Credentials> {
  const res = await signIn(user);
  expect(res.status).toBe(200);
  return { cookies: { [COOKIE]: cookie(cookiesOf(res), COOKIE) } };
}

describe("sign-in", () => {
  test("sets an httpOnly cookie ending in session_token; no token in the answer body", async () => {
    const res = await signIn(owner);
    expect(res.status).toBe(200);
    const line = must(
      res.headers.getSetCookie().find((l) => l.startsWith(`${COOKIE}=`)),
      "the session cookie line",
    );
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    const body = await res.json();
    expect(body.user).toMatchObject({ id: owner.id, username: "olivia" });
    expect(body.token).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain(cookie(cookiesOf(res), COOKIE).split(".")[0]);
  });

  test("checks the local account's argon2id hash, so an account moves between profiles", async () => {
    const row = await firstRow(h.db.select().from(accounts).where(eq(accounts.userId, owner.id)), "olivia's account");
    expect(row.password).toMatch(/^\$argon2id\$/);
    expect((await signIn(owner, "wrong-password-123")).status).toBe(401);
    expect((await signIn({ ...owner, username: "nobody" })).status).toBe(401);
  });

  test("the cookie signs in /api and forwarded requests carry the organization and role", async () => {
    const as = await session(member);
    const me = await h.call("GET", "/api/me", { as });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: member.id, auth_provider: "session", active_organization_id: orgId });
    const list = await h.call("GET", "/api/workspaces", { as });
    expect(list.status).toBe(200);
    expect(h.recorder.last().claims).toMatchObject({ userId: member.id, organizationId: orgId, role: "member" });
  });

  test("the local profile's login route and bearer JWTs are not offered", async () => {
    const res = await h.call("POST", "/api/auth/local/login", {
      body: { username: "olivia", password: owner.password },
    });
    expect(res.status).toBe(404);
    const options = await h.call("GET", "/api/auth/options");
    expect(await options.json()).toEqual({ profile: "session", sso: false, password_reset: false });
    expect(await (await h.call("GET", "/auth/providers")).json()).toEqual({ providers: [] });
  });
});

describe("authorization in the session profile", () => {
  test("a member reads but every write on workspace content is 403", async () => {
    const as = await session(member);
    const write = await h.call("POST", "/api/elements", {
      as,
      body: { type: "BusinessActor", name: "x" },
      headers: { origin: ORIGIN },
    });
    expect(write.status).toBe(403);
    const rename = await h.call("PUT", `/api/workspaces/${workspaceId}`, {
      as,
      body: { name: "y" },
      headers: { origin: ORIGIN },
    });
    expect(rename.status).toBe(403);
    expect((await h.call("GET", "/api/elements", { as })).status).toBe(200);
  });

  test("a suspended organization is 403 to its owner, while platform_admin bypasses every organization check", async () => {
    const ownerSession = await session(owner);
    const frozen = await h.call("GET", `/api/organizations/${suspendedId}/members`, { as: ownerSession });
    expect(frozen.status).toBe(403);
    const admin = await session(root);
    const bypass = await h.call("GET", `/api/organizations/${suspendedId}/members`, { as: admin });
    expect(bypass.status).toBe(200);
    const rename = await h.call("PUT", `/api/workspaces/${workspaceId}`, {
      as: admin,
      body: { name: "Renamed" },
      headers: { origin: ORIGIN },
    });
    expect(rename.status).toBe(200);
    expect(h.recorder.last().claims).toMatchObject({ userId: root.id, organizationId: orgId, platformAdmin: true });
  });
});

describe("CSRF: cookie-authenticated writes need a trusted Origin", () => {
  test("a foreign or missing Origin is refused; the own origin and TRUSTED_ORIGINS pass", async () => {
    const as = await session(owner);
    const body = { type: "BusinessActor", name: "x" };
    const foreign = await h.call("POST", "/api/elements", { as, body, headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).detail).toMatch(/Cross-site/);
    // No Origin at all (the harness adds a browser's unless told otherwise; an empty one counts as none).
    expect((await h.call("POST", "/api/elements", { as, body, headers: { origin: "" } })).status).toBe(403);
    expect((await h.call("POST", "/api/elements", { as, body, headers: { origin: ORIGIN } })).status).toBe(200);
    const trusted = await h.call("POST", "/api/elements", {
      as,
      body,
      headers: { origin: "https://app.example.com" },
    });
    expect(trusted.status).toBe(200);
  });
});

describe("sessions: list, revoke, sign-out", () => {
  test("the user lists their sessions without tokens and revokes another one at once", async () => {
    const first = await session(owner);
    const second = await session(owner);
    const res = await h.call("GET", "/auth/sessions", { as: second });
    expect(res.status).toBe(200);
    const { sessions } = (await res.json()) as { sessions: { id: string; current: boolean }[] };
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(sessions)).not.toMatch(/token/);
    expect((await h.call("GET", "/api/me", { as: first })).status).toBe(200);
    const others = sessions.filter((s) => !s.current);
    for (const s of others) {
      const del = await h.call("DELETE", `/auth/sessions/${s.id}`, { as: second, headers: { origin: ORIGIN } });
      expect(del.status).toBe(204);
    }
    expect((await h.call("GET", "/api/me", { as: first })).status).toBe(401);
    expect((await h.call("GET", "/api/me", { as: second })).status).toBe(200);
  });

  test("a session revoked behind this process's back stops working within SESSION_CACHE_SECONDS", async () => {
    const as = await session(member);
    expect((await h.call("GET", "/api/me", { as })).status).toBe(200);
    // Another replica (or an operator) deletes the row: this process has the lookup cached.
    await h.database.rows(sql`delete from sessions where user_id = ${member.id}`);
    expect((await h.call("GET", "/api/me", { as })).status).toBe(200);
    h.clock.advance(5_001);
    expect((await h.call("GET", "/api/me", { as })).status).toBe(401);
  });

  test("sign-out ends the session and clears the cookie", async () => {
    const as = await session(owner);
    const out = await h.call("POST", "/auth/sign-out", { as, headers: { origin: ORIGIN } });
    expect(out.status).toBe(200);
    expect(cookiesOf(out)[COOKIE]).toBe("");
    expect((await h.call("GET", "/api/me", { as })).status).toBe(401);
  });
});

describe("password change (better-auth's POST /auth/change-password)", () => {
  test("the right current password changes it: other sessions end, this browser gets a fresh session, a forced change is satisfied", async () => {
    const user = await h.user("paula", { mustChangePassword: true });
    const other = await session(user);
    const here = await session(user);
    const before = await h.call("GET", "/api/me", { as: here });
    expect(await before.json()).toMatchObject({ must_change_password: true });

    const newPassword = "a-new-password-456";
    const res = await h.call("POST", "/auth/change-password", {
      as: here,
      body: { currentPassword: user.password, newPassword },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({ id: user.id });
    expect(body.token).toBeUndefined();
    const renewed: Credentials = { cookies: { [COOKIE]: cookiesOf(res)[COOKIE]! } };
    expect(renewed.cookies[COOKIE]).toBeTruthy();

    // Every earlier session of the user ended (the client did not even ask for it); the renewed one works.
    expect((await h.call("GET", "/api/me", { as: other })).status).toBe(401);
    expect((await h.call("GET", "/api/me", { as: here })).status).toBe(401);
    const me = await h.call("GET", "/api/me", { as: renewed });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: user.id, must_change_password: false });

    // The new password signs in (argon2id like every other), the old one no longer does.
    expect((await signIn(user, user.password)).status).toBe(401);
    expect((await signIn(user, newPassword)).status).toBe(200);
    const [row] = await h.db.select().from(accounts).where(eq(accounts.userId, user.id));
    expect(row!.password).toMatch(/^\$argon2id\$/);
  });

  test("a wrong current password is refused with a clear error and changes nothing", async () => {
    const user = await h.user("quentin");
    const here = await session(user);
    const res = await h.call("POST", "/auth/change-password", {
      as: here,
      body: { currentPassword: "not-the-password-1", newPassword: "another-password-789" },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect((await h.call("GET", "/api/me", { as: here })).status).toBe(200);
    expect((await signIn(user)).status).toBe(200);
  });

  test("the local profile's password routes: change refers to /auth/change-password, skip clears a forced change", async () => {
    const user = await h.user("rita", { mustChangePassword: true });
    const here = await session(user);
    const local = await h.call("POST", "/api/auth/change-password", {
      as: here,
      body: { current_password: user.password, new_password: "whatever-password-1" },
      headers: { origin: ORIGIN },
    });
    expect(local.status).toBe(403);
    const skip = await h.call("POST", "/api/auth/change-password/skip", { as: here, headers: { origin: ORIGIN } });
    expect(skip.status).toBe(204);
    expect(skip.headers.getSetCookie()).toEqual([]);
    expect(await (await h.call("GET", "/api/me", { as: here })).json()).toMatchObject({ must_change_password: false });
  });
});
