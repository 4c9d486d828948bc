import { must } from "@ams/shared/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { totpCode } from "../../../services/control/src/two-factor/totp.ts";
import { type SmtpTestServer, startSmtpServer } from "../../../services/control/test/support/smtp.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The account flows as a new colleague lives them, in real Chromium against the real server in both sign-in
 * profiles, with every link read from the e-mail the real SMTP server received: the owner invites an address, the
 * invitee creates their account from the link, enrols two-factor, signs out, resets a forgotten password through the
 * mailed link and signs in with the new one and a code from the authenticator app. Each new page is checked with axe-core and photographed.
 */

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const FIRST_PASSWORD = "first-password-of-newbie";
const NEW_PASSWORD = "second-password-of-newbie";

/** The first link to `path` in the plain-text part of a message. */
function linkIn(text: string, path: string): string {
  return must(new RegExp(`(http://127\\.0\\.0\\.1:\\d+${path}[^\\s]+)`).exec(text)?.[1], `a ${path} link in:\n${text}`);
}

async function axeClean(page: Page, what: string, shot: string) {
  expect(await seriousViolations(page), what).toEqual([]);
  await screenshot(page, shot);
}

const PROFILES: { profile: string; env: Record<string, string>; role: string }[] = [
  { profile: "local", env: {}, role: "viewer" },
  { profile: "session", env: { AUTH_MODE: "session" }, role: "member" },
];

describe.each(PROFILES)("a new colleague's account ($profile profile)", ({ profile, env, role }) => {
  let server: RunningServer;
  let smtp: SmtpTestServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startServer({ ...env, SMTP_URL: smtp.url, MAIL_FROM: "ArchiMate <no-reply@example.com>" });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  test("invited by e-mail, creates the account from the link, enrols two-factor, signs out, resets a forgotten password, signs in with a code", async () => {
    const email = `newbie-${profile}@example.com`;
    const username = `newbie-${profile}`;

    // The owner invites the address; the invitation e-mail goes out.
    const owner = await signedIn(browser, server.base, "archi");
    await owner.page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Organization" }).click();
    await owner.page.getByLabel("E-mail address").fill(email);
    await owner.page.locator("#invite-role").selectOption(role);
    await owner.page.getByRole("button", { name: "Invite", exact: true }).click();
    const dialog = owner.page.getByRole("dialog", { name: "Invitation created" });
    await dialog.getByText(`The invitation e-mail was sent to ${email}.`).waitFor();
    await owner.context.close();
    const invitation = await smtp.mail(0);
    expect(invitation.to).toEqual([email]);
    expect(invitation.text).toContain("Create your account");
    const invitationLink = linkIn(invitation.text, "/invitations/");

    // The invitee, not signed in, opens the link: "Create your account" beside "Sign in".
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    page.on("pageerror", (e) => {
      throw e;
    });
    await page.goto(invitationLink);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    expect(await page.getByRole("link", { name: "Sign in" }).count()).toBeGreaterThan(0);
    await axeClean(page, "create your account", `accounts-${profile}-register`);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Your name").fill("Nora Newbie");
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Repeat the password").fill("short");
    // The browser refuses the short password before sending (minlength); the server would too.
    await page.getByRole("button", { name: "Create account and join" }).click();
    expect(
      await page.getByLabel("Password", { exact: true }).evaluate((i) => (i as HTMLInputElement).validity.tooShort),
    ).toBe(true);
    await page.getByLabel("Password", { exact: true }).fill(FIRST_PASSWORD);
    await page.getByLabel("Repeat the password").fill(FIRST_PASSWORD);
    await page.getByRole("button", { name: "Create account and join" }).click();
    await page
      .getByText(`You joined ArchiSurance as ${role}.`)
      .waitFor()
      .catch(async (err) => {
        await screenshot(page, `accounts-${profile}-register-failed`);
        throw new Error(`${err}\n${await page.locator("body").textContent()}`);
      });
    await axeClean(page, "joined", `accounts-${profile}-joined`);
    await page.getByRole("link", { name: "Open its workspaces" }).click();
    await page.getByRole("heading", { name: "Workspaces of ArchiSurance" }).waitFor();

    // Enrols two-factor on the settings page: the key beside the QR code, a first code, the recovery codes.
    await page.goto(`${server.base}/settings`);
    const twoFactor = page.getByRole("region", { name: "Two-factor authentication" });
    await twoFactor.getByRole("button", { name: "Turn on two-factor" }).click();
    await twoFactor.getByLabel("Your password").fill(FIRST_PASSWORD);
    await twoFactor.getByRole("button", { name: "Continue" }).click();
    await twoFactor.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const secret = ((await twoFactor.locator(".secret-key").textContent()) ?? "").replace(/\s+/g, "");
    await twoFactor.getByLabel("Code from the app").fill(totpCode(secret, new Date()));
    await twoFactor.getByRole("button", { name: "Turn on" }).click();
    await twoFactor.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").first().waitFor();
    await twoFactor.getByRole("button", { name: "I have saved them" }).click();
    await twoFactor.getByText(/^On: signing in asks for a code/).waitFor();
    await page.goto(`${server.base}/`);
    await page.getByRole("heading", { name: "Workspaces of ArchiSurance" }).waitFor();

    // Signs out.
    await page.getByRole("button", { name: /Nora Newbie/ }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((u) => u.pathname === "/login");

    // Forgot the password: the sign-in page links to the request page.
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    await axeClean(page, "forgot password", `accounts-${profile}-forgot`);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByRole("heading", { name: "Check your e-mail" }).waitFor();
    await axeClean(page, "reset link sent", `accounts-${profile}-forgot-sent`);
    const resetMail = await smtp.mail(1);
    expect(resetMail.to).toEqual([email]);
    expect(resetMail.subject).toBe("Set a new password");

    // The mailed link: a new password, then sign in with it.
    await page.goto(linkIn(resetMail.text, "/reset-password"));
    await page.getByRole("heading", { name: "Set a new password" }).waitFor();
    await axeClean(page, "set a new password", `accounts-${profile}-reset`);
    await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.getByRole("heading", { name: "Your password has been changed" }).waitFor();
    expect(new URL(page.url()).hash).toBe("");
    await axeClean(page, "password changed", `accounts-${profile}-reset-done`);

    // The old password no longer signs in; the new one does.
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(FIRST_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
    // The new password, then the second step: the reset kept two-factor on.
    await page.getByLabel("Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Two-factor authentication" }).waitFor();
    await page.getByLabel("Authentication code").fill(totpCode(secret, new Date(Date.now() + 30_000)));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Workspaces of ArchiSurance" }).waitFor();

    // The link worked once: opened again, it says so.
    await page.goto(linkIn(resetMail.text, "/reset-password"));
    await page.getByLabel("Password", { exact: true }).fill("third-password-of-newbie");
    await page.getByLabel("Repeat the password").fill("third-password-of-newbie");
    await page.getByRole("button", { name: "Set the password" }).click();
    await page.getByRole("heading", { name: "This link cannot be used" }).waitFor();
    await axeClean(page, "reset link used", `accounts-${profile}-reset-used`);
    await context.close();
  }, 180_000);
});
