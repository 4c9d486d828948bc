import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The organization's validation rules page in real Chromium against the real server: the owner adds, toggles and
 * deletes rules (a 422 shows beside the field it names); a member reads them without edit controls.
 */
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("validation rules page", () => {
  test("the owner adds a rule, sees a bad pattern refused beside its field, toggles and deletes; a member only reads", async () => {
    const { context, page } = await signedIn(browser, server.base, "archi");
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Organization" }).click();
    await page
      .getByRole("navigation", { name: "Organization administration" })
      .getByRole("link", { name: "Validation rules" })
      .click();
    await page.getByRole("heading", { name: "Validation rules" }).waitFor();
    await page.getByText("No rules yet.").waitFor();

    const form = page.getByRole("form", { name: "Add a rule" });
    await form.getByLabel("Rule type").selectOption("required_property");
    await form.getByLabel("Element type").selectOption("ApplicationComponent");
    await form.getByLabel("Property").fill("Owner");
    await form.getByLabel("Severity").selectOption("error");
    await form.getByRole("button", { name: "Add rule" }).click();
    const table = page.getByRole("table", { name: "Validation rules" });
    const row = table.getByRole("row", { name: /Every Application Component has Owner/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("error");
    expect(await row.getByRole("checkbox").isChecked()).toBe(true);
    await page.getByText("Rule added: Every Application Component has Owner.").waitFor();

    // A pattern of catastrophic backtracking: the 422 shows next to the pattern field, nothing is added.
    await form.getByLabel("Rule type").selectOption("name_pattern");
    await expect.poll(() => form.getByLabel("Property").count()).toBe(0);
    await form.getByLabel("Name pattern (regular expression)").fill("(a+)+");
    await form.getByRole("button", { name: "Add rule" }).click();
    const patternError = page.locator("#rule-pattern-error");
    await patternError.waitFor();
    expect(await patternError.textContent()).toMatch(/backtrack|repeat/i);
    expect(await form.getByLabel("Name pattern (regular expression)").getAttribute("aria-describedby")).toBe(
      "rule-pattern-error",
    );
    expect(await table.getByRole("row").count()).toBe(2); // the header and the one rule
    expect(await seriousViolations(page), "rules page with a field error").toEqual([]);
    await screenshot(page, "validation-rules-owner");

    // Edit loads the rule into the form; saved, the row shows the change.
    await row.getByRole("button", { name: "Edit: Every Application Component has Owner" }).click();
    const edit = page.getByRole("form", { name: "Edit rule" });
    expect(await edit.getByLabel("Property").inputValue()).toBe("Owner");
    await edit.getByLabel("Severity").selectOption("warning");
    await edit.getByRole("button", { name: "Save rule" }).click();
    await page.getByRole("form", { name: "Add a rule" }).waitFor();
    await expect.poll(() => row.textContent()).toContain("warning");

    // Enabled toggles and stays so after a reload.
    await page.getByRole("checkbox", { name: "Enabled: Every Application Component has Owner" }).uncheck();
    await page.getByText("Every Application Component has Owner: disabled.").waitFor();
    await page.reload();
    const toggle = page.getByRole("checkbox", { name: "Enabled: Every Application Component has Owner" });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);

    // A member reads the rules: no add form, no toggles, no edit or delete buttons.
    const member = await signedIn(browser, server.base, "contrib");
    await member.page.goto(`${server.base}/organization`);
    await member.page
      .getByRole("navigation", { name: "Organization administration" })
      .getByRole("link", { name: "Validation rules" })
      .click();
    const memberRow = member.page
      .getByRole("table", { name: "Validation rules" })
      .getByRole("row", { name: /Every Application Component has Owner/ });
    await memberRow.waitFor();
    expect(await memberRow.textContent()).toContain("no");
    expect(await member.page.getByRole("button", { name: /Edit|Delete|Add rule/ }).count()).toBe(0);
    expect(await member.page.getByRole("checkbox").count()).toBe(0);
    expect(await member.page.getByRole("form", { name: "Add a rule" }).count()).toBe(0);
    expect(await seriousViolations(member.page), "rules page for a member").toEqual([]);
    await screenshot(member.page, "validation-rules-member");
    await member.context.close();

    // Delete asks first; cancelled it stays, confirmed it is gone.
    await page.getByRole("button", { name: "Delete: Every Application Component has Owner" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete rule" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByRole("row", { name: /Every Application Component has Owner/ }).count()).toBe(1);
    await page.getByRole("button", { name: "Delete: Every Application Component has Owner" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No rules yet.").waitFor();
    await context.close();
  }, 120_000);
});
