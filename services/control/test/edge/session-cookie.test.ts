import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHarness, type Harness, setCookieLine, type TestUser } from "../support/harness.ts";

/**
 * Issue 22, finding 6: the session profile's lookup cache was keyed on the first cookie whose name ends in
 * `session_token`, while better-auth reads its own cookie. A cookie planted by a sibling subdomain then became a key
 * to the victim's cached identity. Now the cache is keyed on exactly better-auth's cookie; over https that cookie is
 * `__Host-` (no sibling can set it) and every answer carries HSTS.
 */
async function signIn(h: Harness, user: TestUser, origin: string) {
  const res = await h.call("POST", "/auth/sign-in/username", {
    body: { username: user.username, password: user.password },
    headers: { origin },
  });
  expect(res.status).toBe(200);
  return res;
}

const me = (h: Harness, cookie: string) => h.call("GET", "/api/me", { headers: { cookie } });

describe("over http (development)", () => {
  let h: Harness;
  let victim: TestUser;
  beforeAll(async () => {
    h = await createHarness({ env: { AUTH_MODE: "session", SESSION_CACHE_SECONDS: "30" } });
    victim = await h.user("vicky");
  });
  afterAll(() => h.close());

  test("a planted look-alike cookie sent beside the real one is no key to the victim's session", async () => {
    const res = await signIn(h, victim, "http://control.test");
    const real = (setCookieLine(res, "ams.session_token") ?? "").split(";")[0] ?? "";
    expect(real).toMatch(/^ams\.session_token=./);
    const planted = "a_session_token=K1";
    // The victim's browser sends both (the planted one first, as its path is longer).
    const both = await me(h, `${planted}; ${real}`);
    expect(both.status).toBe(200);
    expect((await both.json()).id).toBe(victim.id);
    // The planted cookie alone, within the cache's 30 seconds, is nobody.
    expect((await me(h, planted)).status).toBe(401);
  });

  test("a same-named duplicate shadowing the real cookie neither breaks the session nor becomes a key", async () => {
    const res = await signIn(h, victim, "http://control.test");
    const real = (setCookieLine(res, "ams.session_token") ?? "").split(";")[0] ?? "";
    const shadow = "ams.session_token=K2.forged";
    const both = await me(h, `${shadow}; ${real}`);
    expect(both.status).toBe(200);
    expect((await both.json()).id).toBe(victim.id);
    expect((await me(h, shadow)).status).toBe(401);
  });

  test("no HSTS over http", async () => {
    const res = await h.call("GET", "/api/health");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("over https (PUBLIC_URL https)", () => {
  let h: Harness;
  let user: TestUser;
  const origin = "https://app.example.com";
  beforeAll(async () => {
    h = await createHarness({ env: { AUTH_MODE: "session", PUBLIC_URL: `${origin}/` } });
    user = await h.user("hosta");
  });
  afterAll(() => h.close());

  test("the session cookie is __Host- (Secure, Path=/, no Domain) and signs in; every answer carries HSTS", async () => {
    const res = await signIn(h, user, origin);
    const line = setCookieLine(res, "__Host-ams.session_token") ?? "";
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/; Path=\/(;|$)/i);
    expect(line).not.toMatch(/Domain=/i);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    const cookie = line.split(";")[0] ?? "";
    const ok = await me(h, cookie);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("strict-transport-security")).toBe("max-age=31536000");
    // The name without the prefix, which a sibling subdomain could set, signs nobody in.
    expect((await me(h, cookie.replace("__Host-", ""))).status).toBe(401);
    expect((await h.call("GET", "/api/health")).headers.get("strict-transport-security")).toBe("max-age=31536000");
  });
});
