import { refreshTokens } from "@ams/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sha256Hex } from "../../src/auth/secrets.ts";
import { cookie, cookiesOf, createHarness, type Harness, setCookieLine, type TestUser } from "../support/harness.ts";

let h: Harness;
let alice: TestUser;

beforeAll(async () => {
  h = await createHarness();
  alice = await h.user("alice");
});
afterAll(() => h.close());

const refresh = (refreshToken: string | undefined) =>
  h.call("POST", "/api/auth/refresh", {
    as: refreshToken === undefined ? null : { cookies: { refresh_token: refreshToken, auth_provider: "local" } },
  });

function expectCleared(res: Response) {
  for (const name of ["access_token", "refresh_token", "auth_provider"]) {
    expect(setCookieLine(res, name)).toMatch(/Max-Age=0/);
  }
}

describe("POST /api/auth/refresh", () => {
  test("stores only the SHA-256 of the refresh token", async () => {
    const { cookies } = await h.login(alice);
    const rows = await h.db.select().from(refreshTokens).where(eq(refreshTokens.userId, alice.id));
    expect(rows.some((r) => r.tokenHash === sha256Hex(cookie(cookies, "refresh_token")))).toBe(true);
    expect(rows.every((r) => r.tokenHash !== cookies.refresh_token)).toBe(true);
  });

  test("rotates: 204 with a new refresh and access token; the new access token works", async () => {
    const { cookies } = await h.login(alice);
    h.clock.advance(1000);
    const res = await refresh(cookies.refresh_token);
    expect(res.status).toBe(204);
    const next = cookiesOf(res);
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(cookies.refresh_token);
    expect(next.access_token).not.toBe(cookies.access_token);
    const me = await h.call("GET", "/api/auth/me", { as: { bearer: cookie(next, "access_token") } });
    expect(me.status).toBe(200);
    expect((await refresh(next.refresh_token)).status).toBe(204);
  });

  test("a rotated token presented again revokes every session of the user", async () => {
    const first = await h.login(alice);
    const other = await h.login(alice);
    const rotated = await refresh(first.cookies.refresh_token);
    expect(rotated.status).toBe(204);
    const current = cookiesOf(rotated).refresh_token;

    const reuse = await refresh(first.cookies.refresh_token);
    expect(reuse.status).toBe(401);
    expect(reuse.headers.get("content-type")).toBe("application/problem+json");
    expectCleared(reuse);

    // Both the thief's and the victim's chains are dead, and so is the other browser's session.
    expect((await refresh(current)).status).toBe(401);
    expect((await refresh(other.cookies.refresh_token)).status).toBe(401);
  });

  test("two concurrent refreshes with one token: exactly one succeeds", async () => {
    const { cookies } = await h.login(alice);
    const results = await Promise.all([refresh(cookies.refresh_token), refresh(cookies.refresh_token)]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 401]);
  });

  test("401 with cleared cookies without a cookie, with an unknown token, and after 30 days", async () => {
    const none = await refresh(undefined);
    expect(none.status).toBe(401);
    expectCleared(none);
    expect((await refresh("not-a-token")).status).toBe(401);

    const { cookies } = await h.login(alice);
    h.clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const expired = await refresh(cookies.refresh_token);
    expect(expired.status).toBe(401);
    expectCleared(expired);
  });

  test("the access token expires after 15 minutes", async () => {
    const { cookies } = await h.login(alice);
    expect((await h.call("GET", "/api/auth/me", { as: { cookies } })).status).toBe(200);
    h.clock.advance(15 * 60 * 1000 + 1000);
    expect((await h.call("GET", "/api/auth/me", { as: { cookies } })).status).toBe(401);
  });
});

describe("POST /api/auth/logout", () => {
  test("clears the cookies, ends the session and redirects to /login", async () => {
    const { cookies } = await h.login(alice);
    const res = await h.call("POST", "/api/auth/logout", { as: { cookies } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
    expectCleared(res);
    expect((await refresh(cookies.refresh_token)).status).toBe(401);
  });

  test("works without any session", async () => {
    const res = await h.call("POST", "/api/auth/logout");
    expect(res.status).toBe(302);
  });

  test("from another site it is refused (403) and the session goes on", async () => {
    const { cookies } = await h.login(alice);
    const res = await h.call("POST", "/api/auth/logout", {
      as: { cookies },
      headers: { origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
    expect((await h.call("GET", "/api/auth/me", { as: { cookies } })).status).toBe(200);
  });
});

describe("GET /api/auth/logout", () => {
  test("only clears this browser's cookies: the session is not ended by a GET", async () => {
    const { cookies } = await h.login(alice);
    const res = await h.call("GET", "/api/auth/logout", { as: { cookies } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
    expectCleared(res);
    expect((await h.call("GET", "/api/auth/me", { as: { cookies } })).status).toBe(200);
    expect((await refresh(cookies.refresh_token)).status).toBe(204);
  });
});
