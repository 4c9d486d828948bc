import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";
import { trackWrites, writesSettled } from "./support/writes.ts";

/**
 * Property definitions and values in real Chromium against the real server: an enumeration gets its allowed values
 * in the definitions dialog (and the server's refusal is shown in plain words), the properties panel offers exactly
 * those values, and what the panel sets is what REST reads back, for an enumeration, a boolean and a date.
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

type Definition = { id: string; name: string; type: string; allowed_values: string[] | null };
type StoredElement = { id: string; name: string; properties: Record<string, string | number | boolean> };

describe("property definitions and values", () => {
  let context: BrowserContext;
  let page: Page;
  let elementId = "";

  const rest = async <T>(path: string): Promise<T> => {
    const res = await page.request.get(`${server.base}${path}`);
    expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
    return (await res.json()) as T;
  };
  const definitions = () => rest<Definition[]>("/api/property-definitions");
  const definition = async (name: string) => (await definitions()).find((d) => d.name === name);
  const stored = () => rest<StoredElement>(`/api/elements/${elementId}`);

  beforeAll(async () => {
    ({ context, page } = await signedIn(browser, server.base, "archi"));
    trackWrites(page);
    const post = async (path: string, data: unknown) => {
      const res = await page.request.post(`${server.base}${path}`, { headers: { origin: server.base }, data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: string };
    };
    const ws = await post("/api/workspaces", { name: "Properties by hand" });
    elementId = (await post("/api/elements", { name: "Claims register", type: "ApplicationComponent" })).id;
    await page.goto(`${server.base}/workspaces/${ws.id}`);
    await page.locator(".empty-work").waitFor();
  }, 120_000);
  afterAll(() => context?.close());

  test("an enumeration is defined with its allowed values; a refusal is shown in plain words", async () => {
    await page.locator('[data-element-id]:has-text("Claims register")').first().click();
    await page.getByRole("button", { name: "Manage property definitions" }).click();
    const dialog = page.getByRole("dialog", { name: "Property definitions" });
    await dialog.waitFor();

    // The name and the values typed on the keyboard (one value a line), the type chosen from its list.
    await dialog.getByLabel("New definition").click();
    await page.keyboard.type("Lifecycle");
    await dialog.getByLabel("Type", { exact: true }).selectOption("enumeration");
    const values = dialog.getByLabel("Allowed values", { exact: true });
    await values.waitFor();
    expect(await seriousViolations(page), "definitions dialog with the values field").toEqual([]);

    // A value listed twice: the server refuses, and the dialog says so with the field as it is labelled.
    await values.click();
    await page.keyboard.type("Plan\nBuild\nPlan");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    const alert = dialog.getByRole("alert");
    await expect.poll(() => alert.textContent()).toBe("Allowed values: 'Plan' is listed twice");
    await screenshot(page, "property-definitions-refused");
    expect(await definition("Lifecycle")).toBeUndefined();

    // No values at all is refused the same way, never stored as an enumeration without a list.
    await values.fill("");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await expect.poll(() => alert.textContent()).toContain("Allowed values: an enumeration needs its list");
    expect(await definition("Lifecycle")).toBeUndefined();

    await values.fill("");
    await values.click();
    await page.keyboard.type("Plan\n  Build  \n\nRun");
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
    await expect
      .poll(() => definition("Lifecycle"))
      .toMatchObject({
        type: "enumeration",
        allowed_values: ["Plan", "Build", "Run"],
      });
    // The form is empty again for the next definition, and the refusal is gone.
    await expect.poll(() => dialog.getByLabel("New definition").inputValue()).toBe("");
    expect(await alert.count()).toBe(0);

    // The list of an existing enumeration is edited in its row.
    const rowValues = dialog.getByLabel("Allowed values of Lifecycle, one a line");
    expect(await rowValues.inputValue()).toBe("Plan\nBuild\nRun");
    await rowValues.fill("Plan\nBuild\nRun\nRetire");
    await dialog.getByRole("button", { name: "Save values of Lifecycle" }).click();
    await expect
      .poll(async () => (await definition("Lifecycle"))?.allowed_values)
      .toEqual(["Plan", "Build", "Run", "Retire"]);
  }, 120_000);

  test("a string definition becomes an enumeration once its values are given; boolean and date are added", async () => {
    const dialog = page.getByRole("dialog", { name: "Property definitions" });
    const add = async (name: string, type: string) => {
      await dialog.getByLabel("New definition").fill(name);
      await dialog.getByLabel("Type", { exact: true }).selectOption(type);
      await dialog.getByRole("button", { name: "Add", exact: true }).click();
      await expect.poll(async () => (await definition(name))?.type).toBe(type);
      await expect.poll(() => dialog.getByLabel("New definition").inputValue()).toBe("");
    };
    await add("Tier", "string");
    await add("Reviewed", "boolean");
    await add("Go-live", "date");

    // Choosing enumeration alone changes nothing on the server: it waits for the values.
    await dialog.getByLabel("Type of Tier").selectOption("enumeration");
    await dialog.getByText("Enter the allowed values, then Save values.").waitFor();
    expect((await definition("Tier"))?.type).toBe("string");
    await dialog.getByLabel("Allowed values of Tier, one a line").fill("Gold\nSilver");
    await dialog.getByRole("button", { name: "Save values of Tier" }).click();
    await expect
      .poll(() => definition("Tier"))
      .toMatchObject({ type: "enumeration", allowed_values: ["Gold", "Silver"] });
    expect(await seriousViolations(page), "definitions dialog with four definitions").toEqual([]);
    await screenshot(page, "property-definitions");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });
  }, 120_000);

  test("the properties panel sets an allowed value, a boolean and a date, and REST stores them", async () => {
    const panel = page.locator("aside.properties");
    const lifecycle = panel.getByLabel("Lifecycle", { exact: true });
    await lifecycle.waitFor();
    // The select offers exactly the allowed values, in their order, and "(none)" to clear.
    const options = await lifecycle
      .locator("option")
      .evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual([
      ["", "(none)"],
      ["Plan", "Plan"],
      ["Build", "Build"],
      ["Run", "Run"],
      ["Retire", "Retire"],
    ]);
    expect(
      await panel
        .getByLabel("Tier", { exact: true })
        .locator("option")
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(["", "Gold", "Silver"]);

    await lifecycle.selectOption("Build");
    await expect.poll(async () => (await stored()).properties.Lifecycle).toBe("Build");

    await panel.getByLabel("Reviewed", { exact: true }).click();
    await expect.poll(async () => (await stored()).properties.Reviewed).toBe(true);
    await panel.getByLabel("Go-live", { exact: true }).fill("2027-03-31");
    await expect.poll(async () => (await stored()).properties["Go-live"]).toBe("2027-03-31");
    await writesSettled(page);
    expect(await seriousViolations(page), "properties panel with values").toEqual([]);
    await screenshot(page, "properties-panel-values");

    // What the server keeps is what a fresh screen shows.
    await page.reload();
    await page.locator('[data-element-id]:has-text("Claims register")').first().click();
    await panel.getByLabel("Lifecycle", { exact: true }).waitFor();
    expect(await panel.getByLabel("Lifecycle", { exact: true }).inputValue()).toBe("Build");
    expect(await panel.getByLabel("Reviewed", { exact: true }).isChecked()).toBe(true);
    expect(await panel.getByLabel("Go-live", { exact: true }).inputValue()).toBe("2027-03-31");

    // Unchecking stores false, and "(none)" removes the value.
    await panel.getByLabel("Reviewed", { exact: true }).click();
    await expect.poll(async () => (await stored()).properties.Reviewed).toBe(false);
    await panel.getByLabel("Lifecycle", { exact: true }).selectOption("");
    await expect.poll(async () => (await stored()).properties.Lifecycle).toBeUndefined();

    // A value outside the list cannot be chosen on screen, and the server refuses it when sent by hand.
    const outside = await page.request.put(`${server.base}/api/elements/${elementId}`, {
      headers: { origin: server.base },
      data: { properties: { Lifecycle: "Decommissioned" } },
    });
    expect(outside.status()).toBe(422);
    expect((await stored()).properties.Lifecycle).toBeUndefined();
  }, 120_000);
});
