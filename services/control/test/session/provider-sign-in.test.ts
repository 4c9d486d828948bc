import { accounts, users } from "@ams/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Browser, createBrowser } from "../support/browser.ts";
import { createHarness, type Harness } from "../support/harness.ts";
import { type OidcRealms, type Realm, startOidcRealms, WEB_CLIENT } from "../support/oidc-realm.ts";

/**
 * The session profile's provider sign-in end to end: better-auth's generic OAuth plugin configured for a
 * Keycloak-shaped realm of a REAL OpenID Connect provider (oidc-provider, support/oidc-realm.ts) on a loopback
 * port, driven by a fetch-based browser with a cookie jar through the authorization code flow with PKCE.
 */
const APP = "http://control.test";
const APP_HOST = "control.test";
const SESSION_COOKIE = "ams.session_token";

let realms: OidcRealms;
let realm: Realm;
let h: Harness;

beforeAll(async () => {
  realms = await startOidcRealms({ realms: ["svc-session"], appUrl: APP });
  realm = realms.realm("svc-session");
  realm.addUser({
    username: "carol",
    password: "carol-pw",
    email: "carol@acme.test",
    emailVerified: true,
    firstName: "Carol",
    lastName: "Cartwright",
  });
  h = await createHarness({
    env: {
      AUTH_MODE: "session",
      PUBLIC_URL: APP,
      IDP_SSO_ENABLED: "true",
      IDP_URL: realms.url,
      IDP_REALM: "svc-session",
      IDP_CLIENT_ID_WEB: WEB_CLIENT.id,
      IDP_CLIENT_SECRET_WEB: WEB_CLIENT.secret,
    },
  });
}, 60_000);
afterAll(async () => {
  await h?.close();
  await realms?.close();
});

/** Starts the sign-in as the sign-in page does; answers the browser and the provider address it was sent to. */
async function start(callbackURL = "/workspaces") {
  const browser = createBrowser(h.app, APP_HOST);
  const res = await browser.send(`${APP}/auth/sign-in/social`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: APP },
    body: JSON.stringify({ provider: "keycloak", callbackURL, errorCallbackURL: "/login" }),
  });
  expect(res.status).toBe(200);
  const { url } = (await res.json()) as { url: string };
  return { browser, url: new URL(url) };
}

/** The provider's own sign-in form; answers the hop that brings the browser back to control's callback. */
async function signInAtProvider(browser: Browser, url: URL, username: string, password: string) {
  const toForm = await browser.follow(url.toString(), {}, 10, (u) => u.includes("/interaction/"));
  const last = toForm[toForm.length - 1]!;
  const formUrl = new URL(last.location!, last.url).toString();
  expect(formUrl).toContain("/realms/svc-session/interaction/");
  const back = await browser.follow(
    formUrl,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username, password }).toString(),
    },
    10,
    (u) => u.startsWith(`${APP}/auth/callback/`),
  );
  const hop = back[back.length - 1]!;
  return new URL(hop.location!, hop.url);
}

describe("provider sign-in in the session profile (better-auth generic OAuth, real OIDC provider)", () => {
  test("GET /auth/providers lists the configured provider and where a sign-in starts", async () => {
    const res = await h.call("GET", "/auth/providers");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      providers: [{ id: "keycloak", name: "Keycloak", sign_in_url: "/auth/sign-in/social" }],
    });
    const options = await h.call("GET", "/api/auth/options");
    expect(await options.json()).toEqual({ profile: "session", sso: true, password_reset: false });
  });

  test("the sign-in redirects to the realm with PKCE; the callback creates the account and sets the session cookie", async () => {
    const { browser, url } = await start();
    expect(`${url.origin}${url.pathname}`).toBe(`${realm.issuer}/protocol/openid-connect/auth`);
    expect(url.searchParams.get("client_id")).toBe(WEB_CLIENT.id);
    expect(url.searchParams.get("redirect_uri")).toBe(`${APP}/auth/callback/keycloak`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBeTruthy();

    const callback = await signInAtProvider(browser, url, "carol", "carol-pw");
    expect(callback.searchParams.get("code")).toBeTruthy();
    const res = await browser.send(callback.toString());
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, APP).pathname).toBe("/workspaces");
    const line = res.headers.getSetCookie().find((l) => l.startsWith(`${SESSION_COOKIE}=`));
    expect(line).toMatch(/HttpOnly/i);

    const me = await h.call("GET", "/api/me", { as: { cookies: browser.cookies() } });
    expect(me.status).toBe(200);
    const profile = (await me.json()) as { id: string; username: string; email: string; name: string };
    expect(profile).toMatchObject({ username: "carol", email: "carol@acme.test", name: "Carol Cartwright" });
    const linked = await h.db.select().from(accounts).where(eq(accounts.userId, profile.id));
    expect(linked.map((a) => a.providerId)).toEqual(["keycloak"]);

    // A second sign-in finds the same account: no second user.
    const again = await start();
    const back = await signInAtProvider(again.browser, again.url, "carol", "carol-pw");
    expect((await again.browser.send(back.toString())).status).toBe(302);
    const second = await h.call("GET", "/api/me", { as: { cookies: again.browser.cookies() } });
    expect(((await second.json()) as { id: string }).id).toBe(profile.id);
    expect(await h.db.select().from(users).where(eq(users.email, "carol@acme.test"))).toHaveLength(1);
  });

  test("an existing account with the same verified e-mail is linked, not duplicated", async () => {
    const dave = await h.user("dave");
    await h.db.update(users).set({ emailVerified: true }).where(eq(users.id, dave.id));
    realm.addUser({ username: "dave.kc", password: "dave-pw", email: "dave@test.example", emailVerified: true });

    const { browser, url } = await start();
    const callback = await signInAtProvider(browser, url, "dave.kc", "dave-pw");
    expect((await browser.send(callback.toString())).status).toBe(302);
    const me = await h.call("GET", "/api/me", { as: { cookies: browser.cookies() } });
    expect(((await me.json()) as { id: string; username: string }).username).toBe("dave");
    const linked = await h.db.select().from(accounts).where(eq(accounts.userId, dave.id));
    expect(linked.map((a) => a.providerId).sort()).toEqual(["credential", "keycloak"]);
  });

  test("a callback whose state is not the one this browser started with is refused: no session", async () => {
    const { browser, url } = await start();
    const callback = await signInAtProvider(browser, url, "carol", "carol-pw");
    callback.searchParams.set("state", `${callback.searchParams.get("state")}x`);
    const res = await browser.send(callback.toString());
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location")!, APP);
    expect(to.pathname).toBe("/login");
    expect(to.searchParams.get("error")).toBeTruthy();
    expect(browser.cookies()[SESSION_COOKIE]).toBeUndefined();
    expect((await h.call("GET", "/api/me", { as: { cookies: browser.cookies() } })).status).toBe(401);
  });
});
