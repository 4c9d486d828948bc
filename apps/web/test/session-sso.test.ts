import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OidcRealms, startOidcRealms, WEB_CLIENT } from "../../../services/control/test/support/oidc-realm.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { freePort, type RunningServer, startServer } from "./support/server.ts";

/**
 * The session profile's sign-in with the organization's identity provider in real Chromium: the server runs with
 * AUTH_MODE=session and the IDP_* variables pointing at a REAL OpenID Connect provider (oidc-provider, a
 * Keycloak-shaped realm) started by the test; the sign-in page's SSO button goes through better-auth's generic OAuth
 * sign-in to the realm's form and back with the session cookie.
 */
let realms: OidcRealms;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  realms = await startOidcRealms({ realms: ["svc-web"], appUrl });
  realms.realm("svc-web").addUser({
    username: "wendy",
    password: "wendy-pw",
    email: "wendy@acme.test",
    emailVerified: true,
    firstName: "Wendy",
    lastName: "Webb",
  });
  [server, browser] = await Promise.all([
    startServer(
      {
        AUTH_MODE: "session",
        IDP_SSO_ENABLED: "true",
        IDP_URL: realms.url,
        IDP_REALM: "svc-web",
        IDP_CLIENT_ID_WEB: WEB_CLIENT.id,
        IDP_CLIENT_SECRET_WEB: WEB_CLIENT.secret,
      },
      { port },
    ),
    launchChromium(),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await realms?.close();
});

describe("sign-in with the identity provider (session profile)", () => {
  test("the SSO button leads to the realm's form and back signed in, with the httpOnly session cookie", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const listed = page.waitForResponse((r) => r.url().endsWith("/auth/providers"));
    await page.goto(`${server.base}/login`);
    // The button is the provider GET /auth/providers names, called by its name.
    const providers = (await (await listed).json()) as { providers: { id: string; name: string }[] };
    expect(providers.providers).toEqual([{ id: "keycloak", name: "Keycloak", sign_in_url: "/auth/sign-in/social" }]);
    const sso = page.getByRole("button", { name: "Sign in with Keycloak" });
    await sso.waitFor();
    expect(await page.getByRole("button", { name: /^Sign in with / }).count()).toBe(1);
    expect(await seriousViolations(page), "sign-in page with SSO").toEqual([]);
    await screenshot(page, "session-sso-login");
    const started = page.waitForResponse((r) => r.url().endsWith("/auth/sign-in/social"));
    await sso.click();
    expect((await started).status()).toBe(200);

    await page.waitForURL((url) => url.href.startsWith(`${realms.url}/realms/svc-web/interaction/`));
    await page.locator('input[name="username"]').fill("wendy");
    await page.locator('input[name="password"]').fill("wendy-pw");
    await page.getByRole("button", { name: "Sign in" }).click();

    await page.waitForURL((url) => url.origin === server.base && url.pathname === "/");
    await page.getByRole("button", { name: /Wendy Webb/ }).waitFor();
    const cookies = await context.cookies(server.base);
    expect(cookies.some((c) => c.name === "ams.session_token" && c.httpOnly)).toBe(true);
    const me = await page.evaluate(async () => (await fetch("/api/me")).json());
    expect(me).toMatchObject({ username: "wendy", email: "wendy@acme.test", auth_provider: "session" });
    await screenshot(page, "session-sso-signed-in");
    await context.close();
  }, 120_000);

  test("one button per provider the server lists, named after it; a button starts that provider's sign-in", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // A server offering two providers (this one configures one): the page shows what the list says, nothing else.
    await page.route("**/auth/providers", (route) =>
      route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({
          providers: [
            { id: "keycloak", name: "Acme Staff Login", sign_in_url: "/auth/sign-in/social" },
            { id: "partners", name: "Partner Portal", sign_in_url: "/auth/sign-in/social" },
          ],
        }),
      }),
    );
    await page.goto(`${server.base}/login`);
    await page.getByRole("button", { name: "Sign in with Acme Staff Login" }).waitFor();
    const named = await page
      .getByRole("button", { name: /^Sign in with / })
      .evaluateAll((bs) => bs.map((b) => b.textContent));
    expect(named).toEqual(["Sign in with Acme Staff Login", "Sign in with Partner Portal"]);
    expect(await page.getByText("Keycloak").count()).toBe(0);
    expect(await seriousViolations(page), "sign-in page with two providers").toEqual([]);
    await screenshot(page, "session-sso-login-two-providers");
    // The button posts its provider's id to its sign_in_url; the real server knows only keycloak and says so.
    const started = page.waitForRequest((r) => r.url().endsWith("/auth/sign-in/social"));
    await page.getByRole("button", { name: "Sign in with Partner Portal" }).click();
    expect((await started).postDataJSON()).toMatchObject({ provider: "partners", errorCallbackURL: "/login" });
    await page
      .getByRole("alert")
      .getByText("Sign-in with Partner Portal could not start: Provider not found")
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    await screenshot(page, "session-sso-unknown-provider");
    await context.close();
  }, 120_000);

  test("a provider sign-in that comes back with a wrong state is refused on the sign-in page, in words", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.base}/auth/callback/keycloak?code=forged&state=forged-state`);
    await page.waitForURL((url) => url.pathname === "/login");
    await page
      .getByRole("alert")
      .getByText(/Sign-in with your organization's account did not complete/)
      .waitFor();
    expect((await context.cookies(server.base)).some((c) => c.name.endsWith("session_token"))).toBe(false);
    await screenshot(page, "session-sso-refused");
    await context.close();
  }, 60_000);
});
