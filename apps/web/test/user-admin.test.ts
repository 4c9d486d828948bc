import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The platform administrator's Users and Audit pages and an organization's Audit tab, in real Chromium against the
 * real server (local profile, demo seed): create (the set-password link is shown), search, disable, reset (a new
 * link), and the events that left in the audit; axe-clean.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const userRow = (page: Page, username: string) =>
  page.getByRole("table", { name: "Users" }).locator(`tr[data-user="${username}"]`);

describe("user administration and audit pages", () => {
  test("the Admin creates a user (link shown), searches, disables, resets a password and reads the audit", async () => {
    const { page, context } = await signedIn(browser, server.base, "admin");
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Platform" }).click();
    await page
      .getByRole("navigation", { name: "Platform administration" })
      .getByRole("link", { name: "Users" })
      .click();
    await userRow(page, "archi").waitFor();
    expect(await seriousViolations(page), "users page").toEqual([]);

    await page.getByRole("button", { name: "New user" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Username").fill("nina");
    await dialog.getByLabel("Full name").fill("Nina Neumann");
    await dialog.getByLabel("E-mail address").fill("nina@example.test");
    await dialog.getByRole("button", { name: "Create user" }).click();
    const link = page.getByRole("dialog", { name: "User created" }).getByLabel("Set-password link");
    await link.waitFor();
    expect(await link.inputValue()).toMatch(/\/reset-password#token=[A-Za-z0-9_-]{43}$/);
    await page.getByRole("dialog").getByText("It was not e-mailed").waitFor();
    expect(await seriousViolations(page), "link dialog").toEqual([]);
    await screenshot(page, "platform-user-created-link");
    await page.getByRole("button", { name: "Done" }).click();

    await page.getByLabel("Search by username, name or e-mail").fill("neumann");
    await userRow(page, "nina").waitFor();
    await expect.poll(() => page.getByRole("table", { name: "Users" }).locator("tbody tr").count()).toBe(1);

    await userRow(page, "nina").getByRole("button", { name: "Disable nina" }).click();
    await page.getByRole("dialog", { name: "Disable user" }).getByRole("button", { name: "Disable" }).click();
    await userRow(page, "nina").getByText("disabled").waitFor();
    await screenshot(page, "platform-users-disabled");

    await page.getByLabel("Search by username, name or e-mail").fill("");
    await userRow(page, "user").getByRole("button", { name: "Reset password of user" }).click();
    await page.getByRole("dialog", { name: "Reset password" }).getByRole("button", { name: "Reset password" }).click();
    const reset = page.getByRole("dialog", { name: "Password reset" }).getByLabel("Set-password link");
    await reset.waitFor();
    expect(await reset.inputValue()).toContain("/reset-password#token=");
    await page.getByRole("button", { name: "Done" }).click();
    await screenshot(page, "platform-users");

    await page
      .getByRole("navigation", { name: "Platform administration" })
      .getByRole("link", { name: "Audit" })
      .click();
    const events = page.getByRole("table", { name: "Audit events" });
    await events.locator('tr[data-kind="user.disabled"]').waitFor();
    await events.locator('tr[data-kind="user.created"]').waitFor();
    await events.locator('tr[data-kind="user.password_reset_by_admin"]').waitFor();
    await events.locator('tr[data-kind="sign_in.succeeded"]').first().waitFor();
    await page.getByLabel("Event", { exact: true }).selectOption({ label: "User disabled" });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => events.locator("tbody tr").count()).toBe(1);
    expect(await events.locator("tbody tr").first().textContent()).toContain("nina");
    expect(await seriousViolations(page), "platform audit").toEqual([]);
    await screenshot(page, "platform-audit");
    await context.close();
  });

  test("an owner reads the organization's Audit tab; an editor has no such tab", async () => {
    const owner = await signedIn(browser, server.base, "archi");
    const page = owner.page;
    // An event of the organization's own: the owner renames... the workspace list, then its audit shows it.
    const orgId = await page.evaluate(async () => {
      const me = (await (await fetch("/api/me")).json()) as { active_organization_id: string };
      await fetch("/api/workspaces", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Audited workspace", organization_id: me.active_organization_id }),
      });
      return me.active_organization_id;
    });
    expect(orgId).toBeTruthy();
    await page.goto(`${server.base}/organization`);
    await page
      .getByRole("navigation", { name: "Organization administration" })
      .getByRole("link", { name: "Audit" })
      .click();
    const events = page.getByRole("table", { name: "Audit events" });
    await events.locator('tr[data-kind="workspace.created"]').first().waitFor();
    expect(await events.locator('tr[data-kind="workspace.created"]').first().textContent()).toContain("archi");
    expect(await seriousViolations(page), "organization audit").toEqual([]);
    await screenshot(page, "organization-audit");
    await owner.context.close();

    const editor = await signedIn(browser, server.base, "contrib");
    await editor.page.goto(`${server.base}/organization`);
    await editor.page.getByRole("heading", { name: "Members" }).waitFor();
    expect(await editor.page.getByRole("link", { name: "Audit" }).count()).toBe(0);
    await editor.context.close();
  });
});
