import { accounts, sql } from "@ams/db";
import { eq } from "drizzle-orm";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cookie, createHarness, type Harness, setCookieLine, type TestUser } from "../support/harness.ts";
import { firstRow } from "../support/rows.ts";

let h: Harness;
let alice: TestUser;
let root: TestUser;

beforeAll(async () => {
  h = await createHarness();
  alice = await h.user("alice");
  root = await h.user("root", { platformAdmin: true, mustChangePassword: true });
});
afterAll(() => h.close());

describe("POST /api/auth/local/login", () => {
  test("stores the password as argon2id with the OWASP minimum parameters", async () => {
    const row = await firstRow(h.db.select().from(accounts).where(eq(accounts.userId, alice.id)), "alice's account");
    expect(row.providerId).toBe("credential");
    expect(row.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password).not.toContain(alice.password);
  });

  test("signs in and sets httpOnly, SameSite=Lax cookies carrying an HS256 svc-local JWT", async () => {
    const { res, cookies } = await h.login(alice);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: alice.id,
      username: "alice",
      role: "user",
      must_change_password: false,
    });
    for (const name of ["access_token", "refresh_token", "auth_provider"]) {
      const line = setCookieLine(res, name)!;
      expect(line).toMatch(/HttpOnly/);
      expect(line).toMatch(/SameSite=Lax/);
      expect(line).not.toMatch(/Secure/);
    }
    expect(setCookieLine(res, "refresh_token")).toMatch(/Path=\/api\/auth/);
    expect(setCookieLine(res, "refresh_token")).toMatch(/Max-Age=2592000/);
    expect(setCookieLine(res, "access_token")).toMatch(/Max-Age=900/);
    expect(cookies.auth_provider).toBe("local");
    const claims = decodeJwt(cookie(cookies, "access_token"));
    expect(claims).toMatchObject({
      iss: "svc-local",
      sub: alice.id,
      preferred_username: "alice",
      email: "alice@test.example",
      email_verified: false,
      realm_access: { roles: [] },
    });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(claims.must_change_password).toBeUndefined();
    expect(cookies.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test("marks cookies Secure behind an https proxy", async () => {
    const res = await h.call("POST", "/api/auth/local/login", {
      body: { username: "alice", password: alice.password },
      headers: { "x-forwarded-proto": "https", "x-forwarded-for": "10.9.9.9" },
    });
    expect(res.status).toBe(200);
    for (const name of ["access_token", "refresh_token", "auth_provider"]) {
      expect(setCookieLine(res, name)).toMatch(/; Secure/);
    }
  });

  test("carries platform_admin and must_change_password in the token when set", async () => {
    const { res, cookies } = await h.login(root);
    expect(await res.json()).toMatchObject({ role: "platform_admin", must_change_password: true });
    const claims = decodeJwt(cookie(cookies, "access_token"));
    expect(claims.realm_access).toEqual({ roles: ["platform_admin"] });
    expect(claims.must_change_password).toBe(true);
  });

  test("answers 401 for a wrong password and for an unknown user, with the same message", async () => {
    const wrong = await h.login(alice, { password: "not-the-password" });
    const unknown = await h.login({ id: "x", username: "nobody", password: "whatever-password" });
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.res.headers.get("content-type")).toBe("application/problem+json");
    expect((await wrong.res.json()).detail).toBe((await unknown.res.json()).detail);
    expect(wrong.res.headers.getSetCookie()).toEqual([]);
  });

  test("rejects a malformed body with 422", async () => {
    const res = await h.call("POST", "/api/auth/local/login", { body: { username: "" } });
    expect(res.status).toBe(422);
    expect((await res.json()).errors.map((e: { path: string }) => e.path)).toContain("password");
  });
});

describe("login limit: exponential backoff after 5 failures, never a lockout", () => {
  const wrong = (user: TestUser, ip: string) => h.login(user, { password: "wrong-password", ip });
  const retryAfter = (res: Response) => Number(res.headers.get("retry-after"));

  test("per username and address: after five failures the next attempt waits 60 s, then the wait doubles", async () => {
    const bob = await h.user("bob");
    const ip = "203.0.113.10";
    for (let i = 0; i < 5; i++) expect((await wrong(bob, ip)).res.status).toBe(401);
    // Refused before the password is looked at, even the right one.
    const blocked = await h.login(bob, { ip });
    expect(blocked.res.status).toBe(429);
    expect(retryAfter(blocked.res)).toBe(60);
    expect((await blocked.res.json()).code).toBe("RATE_LIMITED");
    h.clock.advance(60_000);
    expect((await wrong(bob, ip)).res.status).toBe(401);
    const again = await h.login(bob, { ip });
    expect(again.res.status).toBe(429);
    expect(retryAfter(again.res)).toBe(120);
    h.clock.advance(120_000);
    expect((await h.login(bob, { ip })).res.status).toBe(200);
  });

  test("50 failures on one username from many addresses: the real user signs in from their usual address at once", async () => {
    const fay = await h.user("fay");
    const usual = "100.64.200.1";
    expect((await h.login(fay, { ip: usual })).res.status).toBe(200);
    h.clock.advance(60 * 60 * 1000);
    for (let i = 0; i < 50; i++) {
      const ip = `100.64.${i >> 8}.${i & 255}`;
      const res = (await wrong(fay, ip)).res;
      // The username's own delay is short: an attacker spreading guesses waits it out, at most 30 s a guess.
      if (res.status === 429) {
        expect(retryAfter(res)).toBeLessThanOrEqual(30);
        h.clock.advance(retryAfter(res) * 1000);
        expect((await wrong(fay, ip)).res.status).toBe(401);
      } else expect(res.status).toBe(401);
    }
    expect((await h.login(fay, { ip: usual })).res.status).toBe(200);
    // From an address she never used, the username's delay applies, and it is short.
    const elsewhere = await h.login(fay, { ip: "100.64.201.1" });
    expect(elsewhere.res.status).toBe(429);
    expect(retryAfter(elsewhere.res)).toBeLessThanOrEqual(30);
    h.clock.advance(retryAfter(elsewhere.res) * 1000);
    expect((await h.login(fay, { ip: "100.64.201.1" })).res.status).toBe(200);
  });

  test("a stranger's wrong passwords from one address do not delay the real user at another", async () => {
    const erin = await h.user("erin");
    for (let i = 0; i < 5; i++) expect((await wrong(erin, "198.18.0.66")).res.status).toBe(401);
    expect((await h.login(erin, { ip: "198.18.0.66" })).res.status).toBe(429);
    expect((await h.login(erin, { ip: "198.18.0.7" })).res.status).toBe(200);
  });

  test("per IP: failures across usernames from one address delay that address only", async () => {
    const ip = "192.0.2.77";
    for (let i = 0; i < 5; i++) {
      const res = await h.call("POST", "/api/auth/local/login", {
        body: { username: `ghost${i}`, password: "wrong-password" },
        headers: { "x-forwarded-for": ip },
      });
      expect(res.status).toBe(401);
    }
    const blocked = await h.login(alice, { ip });
    expect(blocked.res.status).toBe(429);
    expect(retryAfter(blocked.res)).toBe(60);
    expect((await h.login(alice, { ip: "192.0.2.78" })).res.status).toBe(200);
    h.clock.advance(60_000);
    expect((await h.login(alice, { ip })).res.status).toBe(200);
  });

  test("parallel guesses cannot slip past the count", async () => {
    const carol = await h.user("carol");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => h.login(carol, { password: `wrong-${i}`, ip: "198.51.100.1" })),
    );
    const statuses = results.map((r) => r.res.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
  });

  test("a success resets the pair's count and makes the address a known one for the username", async () => {
    const dave = await h.user("dave");
    const ip = "203.0.113.44";
    for (let i = 0; i < 4; i++) expect((await wrong(dave, ip)).res.status).toBe(401);
    expect((await h.login(dave, { ip })).res.status).toBe(200);
    // The username's failures from that address are forgotten; the address's own count stands (a success with
    // one's own account must not reset an address that guesses at others).
    const counts = await h.database.rows<{ key: string; n: number }>(
      sql`select key, count(*)::int as n from login_attempts where key like ${`%${ip}`} group by key order by key`,
    );
    expect(counts).toEqual([
      { key: `ip:${ip}`, n: 4 },
      { key: `ok:dave@${ip}`, n: 1 },
    ]);
  });
});
