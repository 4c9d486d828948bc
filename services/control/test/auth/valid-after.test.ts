import { users } from "@ams/db";
import { silentLogger } from "@ams/shared";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createControlApp } from "../../src/app.ts";
import { type Credentials, cookiesOf, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * Issue 22, findings 13 and 17 on real PostgreSQL: every access token has its own id, and each user a "valid
 * after" instant that both control replicas (two apps on one database, as in a scaled-out deployment) check on every
 * request. The test clock does not move unless said: "at once" means at once.
 */
let h: Harness;
let replica: ReturnType<typeof createControlApp>;

beforeAll(async () => {
  h = await createHarness();
  replica = createControlApp({
    database: h.database,
    tokens: h.tokens,
    env: h.env,
    clock: h.clock.now,
    upstreams: { tenant: h.recorder },
    log: silentLogger,
  });
});
afterAll(() => h?.close());

const cookieHeader = (as: Credentials) =>
  as && "cookies" in as
    ? Object.entries(as.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join("; ")
    : "";
const meHere = (as: Credentials) => h.call("GET", "/api/me", { as });
const meOnReplica = (as: Credentials) =>
  replica.request("http://control.test/api/me", { headers: { cookie: cookieHeader(as) } });
/** The other replica hears of a change when PostgreSQL's NOTIFY reaches it: milliseconds, never a clock move. */
const eventuallyOnReplica = (as: Credentials, status: number) =>
  vi.waitFor(async () => expect((await meOnReplica(as)).status).toBe(status), { timeout: 2000, interval: 10 });

async function signedIn(user: TestUser): Promise<Credentials> {
  const session = await h.session(user);
  expect((await meHere(session)).status).toBe(200);
  expect((await meOnReplica(session)).status).toBe(200);
  return session;
}

describe("finding 17: signing in again in the same second as signing out", () => {
  test("sign in, sign out, sign in again at once: the new session works (GET /api/me is 200) on both replicas", async () => {
    const user = await h.user("quick");
    const first = await signedIn(user);
    expect((await h.call("POST", "/api/auth/logout", { as: first })).status).toBe(302);
    expect((await meHere(first)).status).toBe(401);

    // Same clock reading as the first sign-in: the old token and the new one have the same claims but their jti.
    const again = await h.session(user);
    expect(again && "cookies" in again && again.cookies.access_token).not.toBe(
      first && "cookies" in first && first.cookies.access_token,
    );
    expect((await meHere(again)).status).toBe(200);
    expect((await meOnReplica(again)).status).toBe(200);
    expect((await meHere(first)).status).toBe(401);
    await eventuallyOnReplica(first, 401);
  });
});

describe("finding 13: every session's access tokens end with it, on every replica", () => {
  test("a password change ends the other browsers' access tokens at once; the changing browser's new one works", async () => {
    const user = await h.user("changer");
    const laptop = await signedIn(user);
    const phone = await signedIn(user);
    const res = await h.call("POST", "/api/auth/change-password", {
      as: phone,
      body: { current_password: user.password, new_password: "a-brand-new-password-42" },
      headers: { "x-forwarded-for": "10.9.0.1" },
    });
    expect(res.status).toBe(204);
    const phoneNow: Credentials = {
      cookies: { ...(phone && "cookies" in phone ? phone.cookies : {}), ...cookiesOf(res) },
    };

    expect((await meHere(laptop)).status).toBe(401);
    await eventuallyOnReplica(laptop, 401);
    expect((await meHere(phone)).status).toBe(401);
    expect((await meHere(phoneNow)).status).toBe(200);
    expect((await meOnReplica(phoneNow)).status).toBe(200);
  });

  test("a reused refresh token ends every access token of the user on every replica", async () => {
    const user = await h.user("reuser");
    const victim = await signedIn(user);
    const stolen = victim && "cookies" in victim ? victim.cookies.refresh_token : undefined;
    const refreshed = await h.call("POST", "/api/auth/refresh", { as: victim });
    expect(refreshed.status).toBe(204);
    const victimNow: Credentials = {
      cookies: { ...(victim && "cookies" in victim ? victim.cookies : {}), ...cookiesOf(refreshed) },
    };
    expect((await meHere(victimNow)).status).toBe(200);

    // Long after the rotation (past any grace for concurrent tabs), the rotated token comes back: a theft.
    h.clock.advance(5 * 60 * 1000);
    const replay = await h.call("POST", "/api/auth/refresh", { as: { cookies: { refresh_token: stolen ?? "" } } });
    expect(replay.status).toBe(401);
    expect((await meHere(victimNow)).status).toBe(401);
    expect((await meHere(victim)).status).toBe(401);
    await eventuallyOnReplica(victimNow, 401);
  });

  test("losing platform_admin ends the access tokens that claim it, whoever writes the change", async () => {
    const user = await h.user("formeradmin", { platformAdmin: true });
    const admin = await signedIn(user);
    expect((await (await h.call("GET", "/api/auth/me", { as: admin })).json()).role).toBe("platform_admin");
    // Written straight in the database (no route of this profile demotes): the trigger announces it.
    await h.db.update(users).set({ role: "user" }).where(eq(users.id, user.id));
    await vi.waitFor(async () => expect((await meHere(admin)).status).toBe(401), { timeout: 2000, interval: 10 });
    await eventuallyOnReplica(admin, 401);

    // The browser's refresh gets a token without the role, which works.
    const refreshed = await h.call("POST", "/api/auth/refresh", { as: admin });
    expect(refreshed.status).toBe(204);
    const after: Credentials = { cookies: cookiesOf(refreshed) };
    const me = await h.call("GET", "/api/auth/me", { as: after });
    expect(me.status).toBe(200);
    expect((await me.json()).role).toBe("user");
  });

  test("a disabled account's access tokens stop on every replica", async () => {
    const user = await h.user("disabled");
    const session = await signedIn(user);
    await h.db.update(users).set({ banned: true }).where(eq(users.id, user.id));
    await vi.waitFor(async () => expect((await meHere(session)).status).toBe(401), { timeout: 2000, interval: 10 });
    await eventuallyOnReplica(session, 401);
  });

  test("while the replica's LISTEN connection is lost it believes nothing it remembered; it listens again", async () => {
    const user = await h.user("unheard");
    const session = await signedIn(user);
    const killed = await h.database.rows<{ ok: boolean }>(
      sql`select pg_terminate_backend(pid) as ok from pg_stat_activity
        where datname = current_database() and application_name like '%:listen'`,
    );
    expect(killed.length).toBeGreaterThan(0);
    // Changed while nobody listens: no announcement reaches anyone, the database is read instead.
    await h.db.update(users).set({ banned: true }).where(eq(users.id, user.id));
    // Both replicas see the connection close (well before BELIEVED_MS): what they remembered is forgotten.
    await eventuallyOnReplica(session, 401);
    await vi.waitFor(async () => expect((await meHere(session)).status).toBe(401), { timeout: 2000, interval: 10 });
    // Listening again (a new connection): later changes are announced as before.
    await vi.waitFor(
      async () => {
        const rows = await h.database.rows(
          sql`select 1 from pg_stat_activity where datname = current_database() and application_name like '%:listen'`,
        );
        expect(rows.length).toBe(2);
      },
      { timeout: 5000, interval: 50 },
    );
    await h.db.update(users).set({ banned: false }).where(eq(users.id, user.id));
    await eventuallyOnReplica(session, 200);
    await h.db.update(users).set({ banned: true }).where(eq(users.id, user.id));
    await eventuallyOnReplica(session, 401);
  });
});
