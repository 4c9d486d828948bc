import { accounts, memberships, sessions, users } from "@ams/db";
import { silentLogger } from "@ams/shared";
import { eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createBackgroundQueue } from "../../src/mail/background.ts";
import { unconfiguredMailer } from "../../src/mail/mailer.ts";
import { createSessionAuth } from "../../src/session/better-auth.ts";
import { ALLOWED_BETTER_AUTH } from "../../src/session/routes.ts";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * better-auth serves far more than the product uses: its admin plugin (set-role, impersonate-user, create-user,
 * remove-user, set-user-password, ban-user, list-users…), update-user, change-email, delete-user, sign-up… Each of
 * those would bypass the product's own rules (last owner, forced password change, the gateway). Only the
 * allow-listed endpoints are reachable under /auth; every other one of better-auth's endpoints, enumerated from the
 * configured instance itself (so a better-auth upgrade that adds one is covered), answers 404 problem+json to an
 * anonymous caller, a signed-in member and a signed-in platform admin, and changes nothing in the database.
 */
let h: Harness;
/** These instances are only enumerated or called on their admin endpoints: no reset e-mail ever goes out. */
const withoutMail = {
  mailer: unconfiguredMailer,
  background: createBackgroundQueue(silentLogger),
  log: silentLogger,
  clock: () => new Date(),
  forgetUser: () => undefined,
};
let owner: TestUser;
let member: TestUser;
let root: TestUser;
let orgId: string;
const ORIGIN = "http://control.test";
const COOKIE = "ams.session_token";
let clients = 0;

beforeAll(async () => {
  h = await createHarness({ env: { AUTH_MODE: "session" } });
  owner = await h.user("owen");
  member = await h.user("mia");
  root = await h.user("rooty", { platformAdmin: true });
  orgId = (
    await h.org("Surface", [
      [owner, "owner"],
      [member, "member"],
      [root, "owner"],
    ])
  ).id;
}, 60_000);
afterAll(() => h.close());

async function session(user: TestUser): Promise<Credentials> {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin: ORIGIN, "x-forwarded-for": `10.7.0.${++clients}` },
  });
  expect(res.status).toBe(200);
  return { cookies: { [COOKIE]: cookiesOf(res)[COOKIE] ?? "" } };
}

type Endpoint = { path: string; methods: string[] };

/** Every HTTP endpoint of the configured better-auth instance (server-only ones have no path). */
function betterAuthEndpoints(): Endpoint[] {
  const auth = createSessionAuth(h.env, h.database, withoutMail);
  const out: Endpoint[] = [];
  for (const endpoint of Object.values(auth.api) as { path?: string; options?: { method?: string | string[] } }[]) {
    if (!endpoint.path) continue;
    const method = endpoint.options?.method ?? "GET";
    const methods = (Array.isArray(method) ? method : [method]).flatMap((m) => (m === "*" ? ["GET", "POST"] : [m]));
    out.push({ path: endpoint.path, methods });
  }
  return out;
}

const allowed = (method: string, path: string) =>
  ALLOWED_BETTER_AUTH.some((a) => a.method === method && a.path === path);

/** A body that would do harm at each of the dangerous endpoints, aimed at the owner (or making the member admin). */
function harmfulInput(victimId: string) {
  return {
    userId: victimId,
    role: "platform_admin",
    newPassword: "taken-over-password-1",
    password: "taken-over-password-1",
    email: "intruder@evil.example",
    newEmail: "intruder@evil.example",
    name: "Intruder",
    username: "intruder",
    banReason: "gone",
    data: { role: "platform_admin", username: "intruder" },
    callbackURL: "/",
  };
}

async function snapshot() {
  const userRows = await h.db
    .select({
      id: users.id,
      role: users.role,
      name: users.name,
      email: users.email,
      username: users.username,
      banned: users.banned,
    })
    .from(users)
    .orderBy(users.id);
  const passwords = await h.db.select({ userId: accounts.userId, password: accounts.password }).from(accounts);
  const members = await h.db.select().from(memberships).where(eq(memberships.organizationId, orgId));
  const [impersonated] = await h.db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(isNotNull(sessions.impersonatedBy));
  return { userRows, passwords: passwords.sort((a, b) => a.userId.localeCompare(b.userId)), members, impersonated };
}

describe("better-auth endpoints outside the allow-list", () => {
  test("the instance serves the dangerous endpoints this test guards (admin plugin, update-user, delete-user, …)", () => {
    const paths = betterAuthEndpoints().map((e) => e.path);
    for (const p of [
      "/admin/set-role",
      "/admin/impersonate-user",
      "/admin/create-user",
      "/admin/remove-user",
      "/admin/set-user-password",
      "/admin/ban-user",
      "/admin/list-users",
      "/update-user",
      "/change-email",
      "/delete-user",
      "/sign-up/email",
      "/list-sessions",
      "/get-session",
    ]) {
      expect(paths).toContain(p);
    }
  });

  test("bypassing the allow-list, better-auth itself would serve the platform admin (the 404s below are ours)", async () => {
    const auth = createSessionAuth(h.env, h.database, withoutMail);
    const as = await session(root);
    const cookie = `${COOKIE}=${(as as { cookies: Record<string, string> }).cookies[COOKIE]}`;
    const res = await auth.handler(new Request(`${ORIGIN}/auth/admin/list-users`, { headers: { cookie } }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { users: unknown[] }).users.length).toBeGreaterThan(0);
  });

  test("answer 404 problem+json to anonymous, member and platform admin callers, and change nothing", async () => {
    const callers: [string, Credentials][] = [
      ["anonymous", null],
      ["member", await session(member)],
      ["platform admin", await session(root)],
    ];
    const before = await snapshot();
    const blocked = betterAuthEndpoints().flatMap((e) =>
      e.methods.filter((m) => !allowed(m, e.path)).map((method) => ({ method, path: e.path })),
    );
    expect(blocked.length).toBeGreaterThan(30);
    const leaks: string[] = [];
    for (const [name, as] of callers) {
      for (const { method, path } of blocked) {
        // The member tries to make themselves platform admin; the others aim at the owner.
        const input = harmfulInput(name === "member" ? member.id : owner.id);
        const concrete = path.replace(/:(\w+)/g, "x");
        const query = method === "GET" ? `?${new URLSearchParams({ userId: input.userId, id: input.userId })}` : "";
        const res = await h.call(method, `/auth${concrete}${query}`, {
          as,
          body: method === "GET" ? undefined : input,
          headers: { origin: ORIGIN },
        });
        const type = res.headers.get("content-type") ?? "";
        if (res.status !== 404 || !type.includes("application/problem+json")) {
          leaks.push(`${name}: ${method} /auth${path} answered ${res.status} ${type}`);
        }
        expect(res.headers.getSetCookie().filter((l) => l.startsWith(`${COOKIE}=`))).toEqual([]);
      }
    }
    expect(leaks).toEqual([]);
    expect(await snapshot()).toEqual(before);
    const [mia] = await h.db.select({ role: users.role }).from(users).where(eq(users.id, member.id));
    expect(mia?.role).toBe("user");
    expect(await h.db.select().from(users).where(eq(users.username, "intruder"))).toEqual([]);
  }, 120_000);

  test("set-role, impersonate-user and create-user by the platform admin: 404, no new role, no session, no user", async () => {
    const as = await session(root);
    const sessionsBefore = await h.db.select({ id: sessions.id }).from(sessions);
    const setRole = await h.call("POST", "/auth/admin/set-role", {
      as,
      body: { userId: member.id, role: "platform_admin" },
      headers: { origin: ORIGIN },
    });
    expect(setRole.status).toBe(404);
    expect((await setRole.json()) as { status: number }).toMatchObject({ status: 404 });
    const impersonate = await h.call("POST", "/auth/admin/impersonate-user", {
      as,
      body: { userId: owner.id },
      headers: { origin: ORIGIN },
    });
    expect(impersonate.status).toBe(404);
    expect(impersonate.headers.getSetCookie()).toEqual([]);
    const create = await h.call("POST", "/auth/admin/create-user", {
      as,
      body: { email: "new@evil.example", password: "some-password-123", name: "New", role: "platform_admin" },
      headers: { origin: ORIGIN },
    });
    expect(create.status).toBe(404);
    const [mia] = await h.db.select({ role: users.role }).from(users).where(eq(users.id, member.id));
    expect(mia?.role).toBe("user");
    expect(await h.db.select().from(users).where(eq(users.email, "new@evil.example"))).toEqual([]);
    const sessionsAfter = await h.db.select({ id: sessions.id }).from(sessions);
    expect(sessionsAfter.length).toBe(sessionsBefore.length);
  });

  test("encoded, dotted and trailing-slash variants of a blocked path are 404 too", async () => {
    const as = await session(root);
    for (const path of [
      "/auth/admin%2Fset-role",
      "/auth/sign-out/../admin/set-role",
      "/auth/sign-in/%2e%2e/admin/set-role",
      "/auth/admin/set-role/",
      "/auth/sign-out/",
      "/auth/sign-in/username/",
      "/auth/ADMIN/set-role",
      "/auth/callback/x%2F..%2F..%2Fadmin%2Fset-role",
    ]) {
      const res = await h.call("POST", path, {
        as,
        body: { userId: member.id, role: "platform_admin" },
        headers: { origin: ORIGIN },
      });
      expect(res.status, path).toBe(404);
    }
    const [mia] = await h.db.select({ role: users.role }).from(users).where(eq(users.id, member.id));
    expect(mia?.role).toBe("user");
  });

  test("the allowed endpoints still work: sign-in, change-password's refusal of a wrong password, sign-out", async () => {
    const as = await session(member);
    const wrong = await h.call("POST", "/auth/change-password", {
      as,
      body: { currentPassword: "not-my-password-1", newPassword: "a-brand-new-password-1" },
      headers: { origin: ORIGIN },
    });
    expect(wrong.status).toBe(400);
    const out = await h.call("POST", "/auth/sign-out", { as, headers: { origin: ORIGIN } });
    expect(out.status).toBe(200);
    expect((await h.call("GET", "/api/me", { as })).status).toBe(401);
  });

  test("without a configured provider, the provider sign-in endpoints are not served", async () => {
    const start = await h.call("POST", "/auth/sign-in/social", {
      body: { provider: "keycloak", callbackURL: "/" },
      headers: { origin: ORIGIN },
    });
    expect(start.status).toBe(404);
    expect((await h.call("GET", "/auth/callback/keycloak?code=x&state=y")).status).toBe(404);
  });
});
