import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { totpCode } from "../../../services/control/src/two-factor/totp.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { PASSWORDS } from "./support/users.ts";

/**
 * Two-factor in the browser, in both profiles: the settings page enrols (QR code, key, first code, recovery codes),
 * and signing in again asks for the app's code after the password.
 */
let browser: Browser;
const servers: Record<"local" | "session", RunningServer | undefined> = { local: undefined, session: undefined };

beforeAll(async () => {
  [servers.local, servers.session, browser] = await Promise.all([
    startServer(),
    startServer({ AUTH_MODE: "session" }),
    launchChromium(),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([servers.local?.stop(), servers.session?.stop()]);
});

async function passwordStep(page: Page, base: string, username: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORDS[username] ?? "");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe.each(["local", "session"] as const)("two-factor in the browser (%s profile)", (profile) => {
  test("enrols with the QR code's key and a first code, shows recovery codes; the next sign-in asks for a code", async () => {
    const server = servers[profile];
    if (!server) throw new Error("the server did not start");
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    page.on("pageerror", (e) => {
      throw e;
    });
    await passwordStep(page, server.base, "user");
    await page.waitForURL((url) => url.pathname !== "/login");
    await page.goto(`${server.base}/settings`);
    const section = page.getByRole("region", { name: "Two-factor authentication" });
    await section.getByText("Off: signing in asks only for your password.").waitFor();
    await section.getByRole("button", { name: "Turn on two-factor" }).click();
    await section.getByLabel("Your password").fill(PASSWORDS.user ?? "");
    await section.getByRole("button", { name: "Continue" }).click();
    await section.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const secret = ((await section.locator(".secret-key").textContent()) ?? "").replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `two-factor-enrol-${profile}`);
    const firstCode = totpCode(secret, new Date());
    await section.getByLabel("Code from the app").fill(firstCode);
    await section.getByRole("button", { name: "Turn on" }).click();
    const codes = section.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    expect(await section.getByRole("button", { name: "Download codes" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `two-factor-recovery-codes-${profile}`);
    await section.getByRole("button", { name: "I have saved them" }).click();
    await section.getByText(/^On: signing in asks for a code/).waitFor();
    await context.close();

    // Signing in again: the password, then the second step.
    const again = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    again.setDefaultTimeout(20_000);
    const next = await again.newPage();
    await passwordStep(next, server.base, "user");
    await next.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    expect(new URL(next.url()).pathname).toBe("/login");
    expect(await seriousViolations(next)).toEqual([]);
    await screenshot(next, `two-factor-sign-in-${profile}`);
    // The enrolment's code is spent (replay): refused, with words on the page.
    await next.getByLabel("Authentication code").fill(firstCode);
    await next.getByRole("button", { name: "Verify" }).click();
    await next
      .getByRole("alert")
      .filter({ hasText: /used already/ })
      .waitFor();
    // The app's next code signs in.
    await next.getByLabel("Authentication code").fill(totpCode(secret, new Date(Date.now() + 30_000)));
    await next.getByRole("button", { name: "Verify" }).click();
    await next.waitForURL((url) => url.pathname !== "/login");
    const me = await next.evaluate(async () => (await fetch("/api/me")).json());
    expect(me).toMatchObject({ username: "user", two_factor_enabled: true });
    await again.close();
  }, 120_000);
});
