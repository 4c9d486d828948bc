import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * Platform administration in real Chromium against the real server: organizations (create with a first owner,
 * rename, suspend, reactivate, delete with a typed confirmation, members), plugins (disable: the icons leave the
 * modeler's picker) and site messages with their preview.
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

const orgRow = (page: Page, name: string) =>
  page.getByRole("table", { name: "Organizations" }).locator(`tr[data-org="${name}"]`);

describe("platform administration", () => {
  test("the Admin creates an organization, suspends it (its member is refused), reactivates, renames and deletes it", async () => {
    const admin = await signedIn(browser, server.base, "admin");
    const page = admin.page;
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Platform" }).click();
    await orgRow(page, "ArchiSurance").waitFor();
    expect(await seriousViolations(page), "platform organizations").toEqual([]);

    await page.getByRole("button", { name: "New organization" }).click();
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Acme Testing");
    await page.getByLabel("First owner's username (optional)").fill("user");
    await page.getByRole("button", { name: "Create organization" }).click();
    await orgRow(page, "Acme Testing").waitFor();
    await screenshot(page, "platform-organizations");

    // Its members, as the Admin sees them.
    await orgRow(page, "Acme Testing").getByRole("link", { name: "Acme Testing" }).click();
    await page.getByRole("heading", { name: "Members of Acme Testing" }).waitFor();
    await page.getByRole("table", { name: "Members" }).locator('tr[data-username="user"]').waitFor();
    await page.getByLabel("Username").fill("contrib");
    await page.locator("#add-member-role").selectOption("editor");
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByRole("table", { name: "Members" }).locator('tr[data-username="contrib"]').waitFor();
    expect(await page.getByLabel("Role of contrib").inputValue()).toBe("editor");
    expect(await seriousViolations(page), "platform members").toEqual([]);
    await screenshot(page, "platform-organization-members");
    await page.getByRole("link", { name: "← All organizations" }).click();

    await orgRow(page, "Acme Testing").getByRole("button", { name: "Suspend Acme Testing" }).click();
    await orgRow(page, "Acme Testing").getByText("suspended").waitFor();

    // The owner of the suspended organization is refused in it.
    const member = await signedIn(browser, server.base, "user");
    const mp = member.page;
    await mp.getByRole("combobox", { name: "Organization" }).selectOption({ label: "Acme Testing (suspended)" });
    await mp
      .getByRole("alert")
      .filter({ hasText: /suspended/i })
      .first()
      .waitFor();
    const acmeId = await page.evaluate(async () => {
      const all = (await (await fetch("/api/platform/organizations")).json()) as { id: string; name: string }[];
      return all.find((o) => o.name === "Acme Testing")?.id;
    });
    const direct = await mp.request.get(`${server.base}/api/organizations/${acmeId}/members`);
    expect(direct.status(), "a member's request into a suspended organization").toBe(403);
    await screenshot(mp, "platform-suspended-member");

    await orgRow(page, "Acme Testing").getByRole("button", { name: "Reactivate Acme Testing" }).click();
    await orgRow(page, "Acme Testing").getByText("active", { exact: true }).waitFor();
    expect((await mp.request.get(`${server.base}/api/organizations/${acmeId}/members`)).status()).toBe(200);
    await member.context.close();

    await orgRow(page, "Acme Testing").getByRole("button", { name: "Rename Acme Testing" }).click();
    await page.getByRole("dialog", { name: "Rename organization" }).getByLabel("Name").fill("Acme Renamed");
    await page.getByRole("button", { name: "Save" }).click();
    await orgRow(page, "Acme Renamed").waitFor();

    await orgRow(page, "Acme Renamed").getByRole("button", { name: "Delete Acme Renamed" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete organization" });
    const confirm = dialog.getByRole("button", { name: "Delete organization" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the organization's name to confirm").fill("Acme");
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the organization's name to confirm").fill("Acme Renamed");
    expect(await seriousViolations(page), "delete dialog").toEqual([]);
    await confirm.click();
    await page.getByText("Organization Acme Renamed deleted.").waitFor();
    await orgRow(page, "Acme Renamed").waitFor({ state: "detached" });
    await page.reload();
    await orgRow(page, "ArchiSurance").waitFor();
    expect(await orgRow(page, "Acme Renamed").count(), "the deleted organization after a reload").toBe(0);
    await admin.context.close();
  });

  test("an enabled plugin's icons are offered in the modeler's icon picker, and disappear when it is disabled", async () => {
    const architect = await signedIn(browser, server.base, "archi");
    const ap = architect.page;
    /** Icons of the Carbon cloud pack the picker offers (0 when the picker is absent: no pack enabled). */
    const pickerCount = async () => {
      await ap.goto(`${server.base}/`);
      await ap.getByRole("link", { name: "Car insurance claims" }).click();
      await ap.locator("[data-element-id]").first().click();
      await ap.locator("#el-doc").waitFor();
      if ((await ap.getByRole("button", { name: "Choose icon" }).count()) === 0) return 0;
      await ap.getByRole("button", { name: "Choose icon" }).click();
      const picker = ap.getByRole("dialog", { name: "Choose an icon" });
      await picker.getByLabel("Search icons").fill("cloud");
      await picker.getByRole("button").nth(1).waitFor();
      const fromPack = await picker.getByRole("button", { name: /from Cloud infrastructure icons/ }).count();
      await picker.getByRole("button", { name: "Close" }).click();
      return fromPack;
    };

    const admin = await signedIn(browser, server.base, "admin");
    const page = admin.page;
    await page.goto(`${server.base}/platform`);
    await page.getByRole("link", { name: "Plugins" }).click();
    const row = page.getByRole("table", { name: "Plugins" }).locator('tr[data-plugin="carbon-cloud-icons"]');
    await row.waitFor();
    expect(await seriousViolations(page), "plugins").toEqual([]);
    await row.getByRole("link").click();
    await page.getByRole("list", { name: "Icons" }).locator("li").first().waitFor();
    await page.getByLabel("Search icons").fill("server");
    await page.getByRole("status").filter({ hasText: "match" }).waitFor();
    expect(await seriousViolations(page), "icon gallery").toEqual([]);
    await screenshot(page, "platform-plugin-gallery");
    await page.getByRole("button", { name: /^Enable / }).click();
    await page.getByText(/is enabled: its icons are offered/).waitFor();
    await page.getByRole("link", { name: "← All plugins" }).click();
    await row.getByText("enabled", { exact: true }).waitFor();
    await screenshot(page, "platform-plugins");

    expect(await pickerCount()).toBeGreaterThan(0);
    await row.getByRole("button", { name: /^Disable / }).click();
    await row.getByText("disabled", { exact: true }).waitFor();
    expect(await pickerCount()).toBe(0);
    await admin.context.close();
    await architect.context.close();
  });

  test("site messages are previewed, saved, and shown where users see them", async () => {
    const { context, page } = await signedIn(browser, server.base, "admin");
    await page.goto(`${server.base}/platform/messages`);
    const banner = page.getByRole("group", { name: "Banner" });
    await banner.getByRole("checkbox").check();
    await banner.getByLabel("Text").fill("Maintenance tonight <b>22:00</b>");
    const preview = page.getByRole("region", { name: "Preview" });
    await preview.getByText("Maintenance tonight <b>22:00</b>").waitFor();
    expect(await seriousViolations(page), "site messages").toEqual([]);
    await screenshot(page, "platform-messages");
    await page.getByRole("button", { name: "Save messages" }).click();
    await page.getByText("Site messages saved.").waitFor();
    const viewer = await signedIn(browser, server.base, "user");
    await viewer.page.getByRole("note").getByText("Maintenance tonight <b>22:00</b>").waitFor();
    await viewer.context.close();
    // The Admin's own pages show the banner too, until it is switched off again.
    await page.locator(".shell > .site-banner").waitFor();
    await banner.getByRole("checkbox").uncheck();
    await page.getByRole("button", { name: "Save messages" }).click();
    await page.locator(".shell > .site-banner").waitFor({ state: "detached" });
    await context.close();
  });

  test("someone who is not the Admin finds no platform link and is refused on its pages", async () => {
    const { context, page } = await signedIn(browser, server.base, "archi");
    expect(await page.getByRole("link", { name: "Platform" }).count()).toBe(0);
    await page.goto(`${server.base}/platform`);
    await page.getByText("Only the platform administrator can open these pages.").waitFor();
    await context.close();
  });
});
