import { createHash } from "node:crypto";
import { memberships, users } from "@ams/db";
import { must } from "@ams/shared/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSmtpMailer } from "../src/mail/mailer.ts";
import { createIdentityProviderDeps } from "../src/sso/index.ts";
import { type Browser, createBrowser, lastHop, redirectTarget } from "./support/browser.ts";
import { cookie, cookiesOf, setCookieLine } from "./support/harness.ts";
import { createIdentityHarness, type IdentityHarness } from "./support/identity-harness.ts";
import {
  ADMIN_CLIENT,
  type OidcRealms,
  type Realm,
  type RealmUser,
  startOidcRealms,
  WEB_CLIENT,
} from "./support/oidc-realm.ts";
import { type SmtpTestServer, startSmtpServer } from "./support/smtp.ts";

/**
 * The identity-provider sign-in end to end: a real OIDC provider (oidc-provider, Keycloak-shaped realms, see
 * support/oidc-realm.ts), the real control app configured for realm svc-acme through createIdentityProviderDeps,
 * a fetch-based browser with a cookie jar driving the authorization code flow with PKCE, and a real SMTP server.
 */
const APP = "http://control.test";
const APP_HOST = "control.test";

let realms: OidcRealms;
let acme: Realm;
let other: Realm;
let smtp: SmtpTestServer;
let h: IdentityHarness;
let alice: RealmUser;
let root: RealmUser;

function envFor(realm: string, extra: Record<string, string> = {}) {
  return {
    PUBLIC_URL: APP,
    IDP_SSO_ENABLED: "true",
    IDP_URL: realms.url,
    IDP_REALM: realm,
    IDP_CLIENT_ID_WEB: WEB_CLIENT.id,
    IDP_CLIENT_SECRET_WEB: WEB_CLIENT.secret,
    IDP_ADMIN_CLIENT_ID: ADMIN_CLIENT.id,
    IDP_ADMIN_CLIENT_SECRET: ADMIN_CLIENT.secret,
    IDP_SELF_REGISTRATION: "true",
    SMTP_URL: smtp.url,
    ...extra,
  };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  realms = await startOidcRealms({ realms: ["svc-acme", "svc-other"], appUrl: APP });
  acme = realms.realm("svc-acme");
  other = realms.realm("svc-other");
  alice = acme.addUser({
    username: "alice",
    password: "alice-pw",
    email: "alice@acme.test",
    emailVerified: true,
    firstName: "Alice",
    lastName: "Archer",
  });
  root = acme.addUser({
    username: "root",
    password: "root-pw",
    email: "root@acme.test",
    emailVerified: true,
    roles: ["platform_admin"],
  });
  other.addUser({
    id: alice.id,
    username: "alice",
    password: "alice-pw",
    email: "alice@acme.test",
    emailVerified: true,
  });
  h = await createIdentityHarness({
    env: envFor("svc-acme"),
    deps: (base) => createIdentityProviderDeps({ env: base.env, database: base.database, clock: base.clock.now }),
  });
}, 30_000);
afterAll(async () => {
  await h?.close();
  await realms?.close();
  await smtp?.stop();
});

/** Drives the whole browser flow: our login, the provider's sign-in form, the callback. Returns the browser. */
async function signIn(user: { username: string }, password: string, from = "/models/42?tab=views"): Promise<Browser> {
  const browser = createBrowser(h.app, APP_HOST);
  const toProvider = await browser.follow(`${APP}/api/auth/login?from=${encodeURIComponent(from)}`, {}, 10, (u) =>
    u.includes("/interaction/"),
  );
  const formUrl = redirectTarget(toProvider).toString();
  expect(formUrl).toContain(`/realms/svc-acme/interaction/`);
  const form = await browser.send(formUrl);
  expect(form.status).toBe(200);
  const back = await browser.follow(formUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: user.username, password }).toString(),
  });
  const callback = back.find((hop) => hop.url.startsWith(`${APP}/api/auth/callback`));
  expect(callback, JSON.stringify(back.map((b) => [b.url, b.status, b.location]))).toBeDefined();
  return browser;
}

const me = (browser: Browser) => h.call("GET", "/api/auth/me", { as: { cookies: browser.cookies() } });

describe("GET /api/auth/login", () => {
  test("stores PKCE, state and the return path for 5 minutes in httpOnly cookies and redirects to the realm", async () => {
    const res = await h.call("GET", "/api/auth/login?from=/models/7");
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${acme.issuer}/protocol/openid-connect/auth`);
    const q = location.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe(WEB_CLIENT.id);
    expect(q.get("redirect_uri")).toBe(`${APP}/api/auth/callback`);
    expect(q.get("code_challenge_method")).toBe("S256");
    const cookies = cookiesOf(res);
    expect(q.get("state")).toBe(cookies.oidc_state);
    expect(q.get("code_challenge")).toBe(
      createHash("sha256").update(cookie(cookies, "pkce_verifier")).digest("base64url"),
    );
    expect(decodeURIComponent(cookie(cookies, "auth_redirect"))).toBe("/models/7");
    for (const name of ["pkce_verifier", "oidc_state", "auth_redirect"]) {
      const line = setCookieLine(res, name)!;
      expect(line).toMatch(/HttpOnly/i);
      expect(line).toMatch(/SameSite=Lax/i);
      expect(line).toMatch(/Max-Age=300/);
    }
  });

  test("refuses open redirects: anything but a same-site path returns to /", async () => {
    for (const from of [
      "https://evil.example/x",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "/%0d%0aX",
    ]) {
      const res = await h.call("GET", `/api/auth/login?from=${encodeURIComponent(from)}`);
      expect(res.status).toBe(302);
      const target = decodeURIComponent(cookie(cookiesOf(res), "auth_redirect"));
      expect(target.startsWith("/") && !target.startsWith("//"), `${from} -> ${target}`).toBe(true);
      expect(new URL(target, APP).origin).toBe(APP);
    }
  });
});

describe("the browser flow", () => {
  test("signs in through the provider, sets the session cookies and returns to the saved path", async () => {
    const browser = createBrowser(h.app, APP_HOST);
    const hops = await browser.follow(
      `${APP}/api/auth/login?from=${encodeURIComponent("/models/42?tab=views")}`,
      {},
      10,
      (u) => u.includes("/interaction/"),
    );
    const formUrl = redirectTarget(hops).toString();
    await browser.send(formUrl);
    const wrong = await browser.send(formUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=alice&password=wrong",
    });
    expect(wrong.status).toBe(401);
    const back = await browser.follow(formUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "username=alice&password=alice-pw",
    });
    const callback = back.find((hop) => hop.url.startsWith(`${APP}/api/auth/callback`))!;
    expect(callback.status).toBe(302);
    expect(callback.location).toBe("/models/42?tab=views");
    const lines = callback.res.headers.getSetCookie();
    const line = (name: string) => lines.find((l) => l.startsWith(`${name}=`) && !/Max-Age=0/.test(l))!;
    expect(line("access_token")).toMatch(/Max-Age=300/);
    expect(line("refresh_token")).toMatch(/Path=\/api\/auth/);
    expect(line("id_token")).toMatch(/Path=\/api\/auth/);
    expect(line("auth_provider")).toMatch(/^auth_provider=oidc;/);
    for (const name of ["access_token", "refresh_token", "id_token", "auth_provider"]) {
      expect(line(name)).toMatch(/HttpOnly/);
      expect(line(name)).toMatch(/SameSite=Lax/);
    }
    // The flow cookies are single-use.
    expect(browser.cookies()).not.toHaveProperty("oidc_state");
    expect(browser.cookies()).not.toHaveProperty("pkce_verifier");

    const res = await me(browser);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: alice.id,
      username: "alice",
      name: "Alice Archer",
      email: "alice@acme.test",
      role: "user",
    });
    const [row] = await h.db.select().from(users).where(eq(users.id, alice.id));
    expect(row).toMatchObject({ username: "alice", email: "alice@acme.test", emailVerified: true, role: "user" });
    // The same access token works as a Bearer token.
    const bearer = await h.call("GET", "/api/auth/me", { as: { bearer: cookie(browser.cookies(), "access_token") } });
    expect(bearer.status).toBe(200);
  });

  test("realm_access.roles holding platform_admin maps to the Admin role", async () => {
    const browser = await signIn(root, "root-pw");
    expect((await (await me(browser)).json()).role).toBe("platform_admin");
    expect((await h.call("GET", "/api/platform/organizations", { as: { cookies: browser.cookies() } })).status).toBe(
      200,
    );
  });

  test("a state that does not match the cookie is refused, and no session is started", async () => {
    const browser = createBrowser(h.app, APP_HOST);
    await browser.send(`${APP}/api/auth/login?from=/x`);
    const res = await browser.send(`${APP}/api/auth/callback?code=anything&state=not-the-state`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?error=state_mismatch");
    expect(browser.cookies()).not.toHaveProperty("access_token");
    const fresh = createBrowser(h.app, APP_HOST);
    const noCookie = await fresh.send(`${APP}/api/auth/callback?code=anything&state=anything`);
    expect(noCookie.headers.get("location")).toBe("/login?error=state_mismatch");
  });

  test("a code is good once: replaying the callback fails", async () => {
    const browser = createBrowser(h.app, APP_HOST);
    const hops = await browser.follow(`${APP}/api/auth/login?from=/`, {}, 10, (u) => u.includes("/interaction/"));
    const formUrl = redirectTarget(hops).toString();
    const back = await browser.follow(
      formUrl,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "username=alice&password=alice-pw",
      },
      10,
      (u) => u.startsWith(`${APP}/api/auth/callback`),
    );
    const callbackUrl = redirectTarget(back).toString();
    const flow = browser.cookies();
    const first = await browser.send(callbackUrl);
    expect(first.headers.get("location")).toBe("/");
    for (const [k, v] of Object.entries(flow)) browser.setCookie(k, v);
    const replay = await browser.send(callbackUrl);
    expect(replay.headers.get("location")).toBe("/login?error=code_rejected");
  });
});

describe("tokens of another realm", () => {
  test("are rejected even though they verify with the same key", async () => {
    const token = await tokenFrom(other, "alice", "alice-pw");
    const claims = JSON.parse(Buffer.from(must(token.split(".")[1], "the JWT payload"), "base64url").toString());
    expect(claims.iss).toBe(other.issuer);
    expect(claims.sub).toBe(alice.id);
    expect((await h.call("GET", "/api/auth/me", { as: { bearer: token } })).status).toBe(401);
    expect((await h.call("GET", "/api/auth/me", { as: { cookies: { access_token: token } } })).status).toBe(401);
    // The same user's token from our realm passes.
    const ours = await tokenFrom(acme, "alice", "alice-pw");
    expect((await h.call("GET", "/api/auth/me", { as: { bearer: ours } })).status).toBe(200);
  });

  test("an app configured for the other realm refuses ours", async () => {
    const elsewhere = await createIdentityHarness({
      env: envFor("svc-other"),
      deps: (base) => createIdentityProviderDeps({ env: base.env, database: base.database }),
    });
    try {
      const ours = await tokenFrom(acme, "alice", "alice-pw");
      expect((await elsewhere.call("GET", "/api/auth/me", { as: { bearer: ours } })).status).toBe(401);
      const theirs = await tokenFrom(other, "alice", "alice-pw");
      expect((await elsewhere.call("GET", "/api/auth/me", { as: { bearer: theirs } })).status).toBe(200);
    } finally {
      await elsewhere.close();
    }
  });
});

describe("refresh and logout", () => {
  test("refresh exchanges the refresh token: 204 with new cookies; a refused token is 401 with cleared cookies", async () => {
    const browser = await signIn(alice, "alice-pw");
    const before = browser.cookies();
    await new Promise((r) => setTimeout(r, 1100)); // a new token differs in iat
    const res = await browser.send(`${APP}/api/auth/refresh`, { method: "POST" });
    expect(res.status).toBe(204);
    const after = browser.cookies();
    expect(after.access_token).toBeTruthy();
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.auth_provider).toBe("oidc");
    expect((await me(browser)).status).toBe(200);

    browser.setCookie("refresh_token", "revoked-or-forged");
    const refused = await browser.send(`${APP}/api/auth/refresh`, { method: "POST" });
    expect(refused.status).toBe(401);
    const cleared = refused.headers.getSetCookie();
    for (const name of ["access_token", "refresh_token", "id_token", "auth_provider"]) {
      expect(
        cleared.some((l) => l.startsWith(`${name}=;`) && /Max-Age=0/.test(l)),
        name,
      ).toBe(true);
    }
    expect(browser.cookies()).toEqual({});
  });

  test("logout clears the cookies and goes through the provider's end-session back to /login", async () => {
    const browser = await signIn(alice, "alice-pw");
    const idToken = browser.cookies().id_token;
    const res = await browser.send(`${APP}/api/auth/logout`, { method: "POST" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${acme.issuer}/protocol/openid-connect/logout`);
    expect(location.searchParams.get("id_token_hint")).toBe(idToken);
    expect(location.searchParams.get("post_logout_redirect_uri")).toBe(`${APP}/login`);
    expect(location.searchParams.get("client_id")).toBe(WEB_CLIENT.id);
    expect(browser.cookies()).toEqual({});

    // The provider accepts the request: its confirmation form, once submitted, returns the browser to /login.
    const page = await browser.send(location.toString());
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    expect(action && xsrf).toBeTruthy();
    const confirmed = await browser.follow(
      new URL(action!, location).toString(),
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ xsrf: xsrf!, logout: "yes" }).toString(),
      },
      5,
      (u) => u.startsWith(APP),
    );
    expect(lastHop(confirmed).location).toBe(`${APP}/login`);
  });
});

describe("the provider's admin operations", () => {
  let owner: { cookies: Record<string, string> };
  let orgId: string;
  beforeAll(async () => {
    const browser = await signIn(alice, "alice-pw");
    owner = { cookies: browser.cookies() };
    const org = await h.org("SSO Org");
    orgId = org.id;
    await h.db.insert(memberships).values({ organizationId: orgId, userId: alice.id, role: "owner" });
  });

  test("add member by username finds the account at the provider and mirrors it into users", async () => {
    const bob = acme.addUser({ username: "bob", email: "bob@acme.test", emailVerified: true, firstName: "Bob" });
    const res = await h.call("POST", `/api/organizations/${orgId}/members`, {
      as: owner,
      body: { username: "Bob", role: "viewer" },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ userId: bob.id, username: "bob", role: "viewer" });
    const [row] = await h.db.select().from(users).where(eq(users.id, bob.id));
    expect(row).toMatchObject({ username: "bob", email: "bob@acme.test" });
    const missing = await h.call("POST", `/api/organizations/${orgId}/members`, {
      as: owner,
      body: { username: "nobody", role: "viewer" },
    });
    expect(missing.status).toBe(422);
    expect(acme.adminCalls.some((c) => c.path.startsWith("/users?") && c.path.includes("username=bob"))).toBe(true);
  });

  test("inviting an address without an identity provisions one and has the provider send the actions e-mail", async () => {
    const before = smtp.messages.length;
    const res = await h.call("POST", `/api/organizations/${orgId}/invitations`, {
      as: owner,
      body: { email: "New.Person@acme.test", role: "editor" },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ delivery_kind: "onboarding", email: "new.person@acme.test" });
    expect(body.sent_at).not.toBeNull();
    const created = [...acme.users.values()].find((u) => u.email === "new.person@acme.test")!;
    expect(created).toMatchObject({ enabled: true, emailVerified: false });
    expect(created.password).toBeUndefined();
    const actions = acme.actionsEmails.find((a) => a.userId === created.id)!;
    expect(actions.actions).toEqual(["UPDATE_PROFILE", "UPDATE_PASSWORD", "VERIFY_EMAIL"]);
    expect(actions.query.client_id).toBe(WEB_CLIENT.id);
    expect(JSON.stringify(actions)).not.toContain(body.accept_url.split("/").pop());
    const mail = await smtp.mail(before);
    expect(mail.to).toEqual(["new.person@acme.test"]);
    expect(mail.text).toContain("An account has been created for you");
    expect(mail.text).toContain(body.accept_url);
  });

  test("when the first actions e-mail fails the new identity is removed and nothing is sent", async () => {
    acme.failActionsEmailFor.add("doomed@acme.test");
    const before = smtp.messages.length;
    const res = await h.call("POST", `/api/organizations/${orgId}/invitations`, {
      as: owner,
      body: { email: "doomed@acme.test", role: "viewer" },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ delivery_kind: "onboarding", sent_at: null });
    expect([...acme.users.values()].some((u) => u.email === "doomed@acme.test")).toBe(false);
    const calls = acme.adminCalls.map((c) => `${c.method} ${c.path.split("?")[0]}`);
    const createdAt = calls.lastIndexOf("POST /users");
    expect(calls.slice(createdAt)).toEqual([
      "POST /users",
      expect.stringMatching(/^PUT \/users\/.+\/execute-actions-email$/),
      expect.stringMatching(/^DELETE \/users\/.+$/),
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages.length).toBe(before);
    expect(smtp.messages.some((m) => m.to.includes("doomed@acme.test"))).toBe(false);

    // Once the provider can mail again, resend provisions afresh and delivers.
    acme.failActionsEmailFor.delete("doomed@acme.test");
    const resent = await h.call("POST", `/api/organizations/${orgId}/invitations/${body.id}/resend`, { as: owner });
    expect(resent.status).toBe(201);
    expect((await resent.json()).sent_at).not.toBeNull();
    expect([...acme.users.values()].some((u) => u.email === "doomed@acme.test")).toBe(true);
  });

  test("an existing identity gets the normal invitation; after signing in it accepts", async () => {
    const carol = acme.addUser({
      username: "carol",
      password: "carol-pw",
      email: "carol@acme.test",
      emailVerified: true,
    });
    const postsBefore = acme.adminCalls.filter((c) => c.method === "POST").length;
    const res = await h.call("POST", `/api/organizations/${orgId}/invitations`, {
      as: owner,
      body: { email: "carol@acme.test", role: "editor" },
    });
    const body = await res.json();
    expect(body).toMatchObject({ delivery_kind: "invitation" });
    expect(body.sent_at).not.toBeNull();
    expect(acme.adminCalls.filter((c) => c.method === "POST").length).toBe(postsBefore);

    const browser = await signIn(carol, "carol-pw", `/invitations/${body.accept_url.split("/").pop()}`);
    const token = body.accept_url.split("/").pop();
    const as = { cookies: browser.cookies() };
    expect((await h.call("GET", `/api/invitations/${token}`, { as })).status).toBe(200);
    const accepted = await h.call("POST", `/api/invitations/${token}/accept`, { as });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ organization_id: orgId, role: "editor", already_member: false });
  });

  test("an identity whose e-mail is not verified cannot accept", async () => {
    const dave = acme.addUser({ username: "dave", password: "dave-pw", email: "dave@acme.test", emailVerified: false });
    const body = await (
      await h.call("POST", `/api/organizations/${orgId}/invitations`, {
        as: owner,
        body: { email: "dave@acme.test", role: "viewer", delivery_mode: "manual" },
      })
    ).json();
    const browser = await signIn(dave, "dave-pw");
    const res = await h.call("POST", `/api/invitations/${body.accept_url.split("/").pop()}/accept`, {
      as: { cookies: browser.cookies() },
    });
    expect(res.status).toBe(403);
  });

  test("without self-registration (a dedicated realm) e-mail invitations are refused; manual links work", async () => {
    const dedicated = await createIdentityHarness({
      env: envFor("svc-acme", { IDP_SELF_REGISTRATION: "false" }),
      deps: (base) => ({
        ...createIdentityProviderDeps({ env: base.env, database: base.database }),
        mailer: createSmtpMailer({ url: smtp.url, from: "x <x@x.test>" }),
      }),
    });
    try {
      const o = await dedicated.verifiedUser("dedicated-owner");
      const org = await dedicated.org("Dedicated", [[o, "owner"]]);
      const as = await dedicated.session(o);
      const refused = await dedicated.call("POST", `/api/organizations/${org.id}/invitations`, {
        as,
        body: { email: "someone@acme.test", role: "viewer" },
      });
      expect(refused.status).toBe(422);
      expect((await refused.json()).detail).toMatch(/shared realm/);
      const manual = await dedicated.call("POST", `/api/organizations/${org.id}/invitations`, {
        as,
        body: { email: "someone@acme.test", role: "viewer", delivery_mode: "manual" },
      });
      expect(manual.status).toBe(201);
    } finally {
      await dedicated.close();
    }
  });
});

/**
 * An access token of `realm` for `username`, obtained through the real authorization code flow (PKCE) with the
 * code taken from the redirect instead of handing it to control.
 */
async function tokenFrom(realm: Realm, username: string, password: string): Promise<string> {
  const browser = createBrowser(h.app, APP_HOST);
  const verifier = "v".repeat(43);
  const auth = new URL(`${realm.issuer}/protocol/openid-connect/auth`);
  auth.search = new URLSearchParams({
    response_type: "code",
    client_id: WEB_CLIENT.id,
    redirect_uri: `${APP}/api/auth/callback`,
    scope: "openid profile email",
    state: "s",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const hops = await browser.follow(auth.toString(), {}, 5, (u) => u.includes("/interaction/"));
  const formUrl = redirectTarget(hops).toString();
  const back = await browser.follow(
    formUrl,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username, password }).toString(),
    },
    10,
    (u) => u.startsWith(APP),
  );
  const code = must(redirectTarget(back).searchParams.get("code") ?? undefined, "the authorization code");
  const res = await fetch(`${realm.issuer}/protocol/openid-connect/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${WEB_CLIENT.id}:${WEB_CLIENT.secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: `${APP}/api/auth/callback`,
      code_verifier: verifier,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}
