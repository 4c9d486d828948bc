import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The modeler's Problems tab in real Chromium against the real server: its badge counts the errors and warnings the
 * validation finds, and a click on an issue opens the view holding the object and selects it in the model tree.
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

describe("Problems panel", () => {
  let context: BrowserContext;
  let page: Page;
  let workspaceId = "";
  let strayId = "";

  const send = async (path: string, data: unknown) => {
    const res = await page.request.post(`${server.base}${path}`, { headers: { origin: server.base }, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as { id: string };
  };

  beforeAll(async () => {
    ({ context, page } = await signedIn(browser, server.base, "archi"));
    workspaceId = (await send("/api/workspaces", { name: "Problems by hand" })).id;
    const billing = (await send("/api/elements", { name: "Billing", type: "ApplicationComponent" })).id;
    await send("/api/elements", { name: "billing", type: "ApplicationComponent" });
    strayId = (await send("/api/elements", { name: "Stray module", type: "ApplicationComponent" })).id;
    await send("/api/views", { name: "Empty sketch" });
    const view = (await send("/api/views", { name: "Landscape" })).id;
    const outer = (await send(`/api/views/${view}/nodes`, { element_id: billing, x: 20, y: 20, w: 400, h: 240 })).id;
    await send(`/api/views/${view}/nodes`, { element_id: strayId, x: 60, y: 80, parent_id: outer });
  }, 120_000);
  afterAll(() => context?.close());

  test("the badge counts the problems; clicking one selects the object in the tree and opens its view", async () => {
    await page.goto(`${server.base}/workspaces/${workspaceId}`);
    const tab = page.getByRole("tab", { name: /Problems/ });
    // A duplicate on no view (2 warnings), an empty view, a nesting without a relationship: 4.
    await expect.poll(() => tab.textContent()).toContain("4");
    await tab.click();
    const list = page.getByRole("list", { name: "Problems" });
    await list.getByRole("button").first().waitFor();
    expect(await page.locator(".problems-counts").textContent()).toContain("0 errors, 4 warnings");
    // The first view is open; the nesting issue belongs to "Landscape".
    await list.getByRole("button", { name: /Stray module.*nested in.*Billing/ }).click();
    // "Landscape" is drawn (not an error in its place), with the nested node selected: one selection outline.
    await page.locator('svg.canvas g[data-node-id][data-label^="Stray module,"]').waitFor();
    await expect.poll(() => page.locator("svg.canvas g.selection").count()).toBe(1);
    expect(await page.locator('.form-error[role="alert"]').allTextContents()).toEqual([]);
    await page.getByRole("tab", { name: /Model/ }).click();
    const row = page.locator(`[role="treeitem"][data-element-id="${strayId}"]`);
    await expect.poll(() => row.getAttribute("aria-selected")).toBe("true");
    await page.getByRole("tab", { name: /Problems/ }).click();
    await screenshot(page, "validation-problems");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
