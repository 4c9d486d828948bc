import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Credentials, createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * Issue 22, finding 9: in the local profile cookie-authenticated writes were protected by SameSite=Lax alone, which a
 * sibling subdomain passes (confirmed: a cookie write with `Origin: https://evil.example` created an element). The
 * session profile's Origin check now applies in both profiles; Bearer requests are not subject to it.
 */
let h: Harness;
let owner: TestUser;
let as: Credentials;
const cookieOf = (c: Credentials) =>
  c && "cookies" in c
    ? Object.entries(c.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join("; ")
    : "";

beforeAll(async () => {
  h = await createHarness({ env: { TRUSTED_ORIGINS: "https://app.example.com" } });
  owner = await h.user("olive");
  const org = await h.org("Acme", [[owner, "owner"]]);
  await h.workspace(org.id);
  as = await h.session(owner);
});
afterAll(() => h.close());

/** A write as a browser sends it: the session cookies, and the Origin the page had (or none). */
const write = (origin: string | null, path = "/api/elements", method = "POST") =>
  h.app.request(`http://control.test${path}`, {
    method,
    headers: {
      cookie: cookieOf(as),
      "content-type": "application/json",
      ...(origin ? { origin } : {}),
    },
    body: JSON.stringify({ name: "Planted", type: "Node" }),
  });

describe("local profile: cookie-authenticated writes", () => {
  test("from another site (Origin https://evil.example) are refused with 403 and never forwarded", async () => {
    const before = h.recorder.calls.length;
    const res = await write("https://evil.example");
    expect(res.status).toBe(403);
    expect((await res.json()).detail).toContain("Cross-site request refused");
    expect((await write("https://evil.example", "/api/import")).status).toBe(403);
    expect((await write("https://evil.example", "/api/workspaces/x", "DELETE")).status).toBe(403);
    expect(h.recorder.calls.length).toBe(before);
  });

  test("without Origin or Referer are refused; a Referer of the site itself is enough", async () => {
    expect((await write(null)).status).toBe(403);
    const referred = await h.app.request("http://control.test/api/elements", {
      method: "POST",
      headers: { cookie: cookieOf(as), referer: "http://control.test/models", "content-type": "application/json" },
      body: "{}",
    });
    expect(referred.status).toBe(200);
  });

  test("from the site itself, PUBLIC_URL's origin or a trusted origin go through", async () => {
    for (const origin of ["http://control.test", "http://localhost:8080", "https://app.example.com"]) {
      const before = h.recorder.calls.length;
      expect((await write(origin)).status).toBe(200);
      expect(h.recorder.calls.length).toBe(before + 1);
    }
  });

  test("reads are not checked; a Bearer token is not subject to the check", async () => {
    const read = await h.app.request("http://control.test/api/elements", {
      headers: { cookie: cookieOf(as), origin: "https://evil.example" },
    });
    expect(read.status).toBe(200);
    const access = as && "cookies" in as ? as.cookies.access_token : "";
    const bearer = await h.app.request("http://control.test/api/elements", {
      method: "POST",
      headers: {
        authorization: `Bearer ${access}`,
        origin: "https://evil.example",
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(bearer.status).toBe(200);
  });

  test("refresh and sign-out with the cookies from another site are refused; the session goes on", async () => {
    for (const path of ["/api/auth/refresh", "/api/auth/logout"]) {
      const res = await h.app.request(`http://control.test${path}`, {
        method: "POST",
        headers: { cookie: cookieOf(as), origin: "https://evil.example" },
      });
      expect(res.status).toBe(403);
    }
    expect((await h.call("GET", "/api/me", { as })).status).toBe(200);
  });
});
