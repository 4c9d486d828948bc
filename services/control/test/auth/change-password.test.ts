import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cookie, cookiesOf, createHarness, type Harness } from "../support/harness.ts";

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe("forced password change", () => {
  test("change-password: checks the current one, replaces it, ends other sessions, drops the claim", async () => {
    const erin = await h.user("erin", { mustChangePassword: true });
    const other = await h.login(erin);
    const { cookies } = await h.login(erin);
    expect(decodeJwt(cookie(cookies, "access_token")).must_change_password).toBe(true);

    const wrong = await h.call("POST", "/api/auth/change-password", {
      as: { cookies },
      body: { current_password: "not-it-at-all", new_password: "a-brand-new-password" },
    });
    expect(wrong.status).toBe(422);

    const short = await h.call("POST", "/api/auth/change-password", {
      as: { cookies },
      body: { current_password: erin.password, new_password: "short" },
    });
    expect(short.status).toBe(422);

    const res = await h.call("POST", "/api/auth/change-password", {
      as: { cookies },
      body: { current_password: erin.password, new_password: "a-brand-new-password" },
    });
    expect(res.status).toBe(204);
    const fresh = cookiesOf(res);
    expect(decodeJwt(cookie(fresh, "access_token")).must_change_password).toBeUndefined();

    expect((await h.login(erin)).res.status).toBe(401);
    expect((await h.login({ ...erin, password: "a-brand-new-password" })).res.status).toBe(200);
    const otherRefresh = await h.call("POST", "/api/auth/refresh", {
      as: { cookies: { refresh_token: cookie(other.cookies, "refresh_token") } },
    });
    expect(otherRefresh.status).toBe(401);
    const ownRefresh = await h.call("POST", "/api/auth/refresh", {
      as: { cookies: { refresh_token: cookie(fresh, "refresh_token") } },
    });
    expect(ownRefresh.status).toBe(204);
  });

  test("skip clears the flag for good and reissues the access token without the claim", async () => {
    const finn = await h.user("finn", { mustChangePassword: true });
    const { cookies } = await h.login(finn);
    const res = await h.call("POST", "/api/auth/change-password/skip", { as: { cookies } });
    expect(res.status).toBe(204);
    expect(decodeJwt(cookie(cookiesOf(res), "access_token")).must_change_password).toBeUndefined();
    const again = await h.login(finn);
    expect(await again.res.json()).toMatchObject({ must_change_password: false });
  });

  test("needs a signed-in session", async () => {
    expect((await h.call("POST", "/api/auth/change-password/skip")).status).toBe(401);
    expect(
      (
        await h.call("POST", "/api/auth/change-password", {
          body: { current_password: "x", new_password: "a-brand-new-password" },
        })
      ).status,
    ).toBe(401);
  });
});
