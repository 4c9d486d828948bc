import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The Versions page in real Chromium against the real server: a version "Before lunch" is made from the page, an
 * element is renamed and its node moved, the comparison lists the rename and shows the server's picture of the view's
 * changes, the version exports as XML and ZIP, and restoring the version (after confirming) brings the old name back,
 * as REST reads it.
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

describe("versions page", () => {
  let context: BrowserContext;
  let page: Page;
  let workspaceId = "";
  let elementId = "";
  let viewId = "";
  let nodeId = "";

  const send = async (method: "post" | "put", path: string, data: unknown) => {
    const res = await page.request[method](`${server.base}${path}`, { headers: { origin: server.base }, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as { id: string; name: string };
  };

  beforeAll(async () => {
    ({ context, page } = await signedIn(browser, server.base, "archi"));
    workspaceId = (await send("post", "/api/workspaces", { name: "Versions by hand" })).id;
    elementId = (await send("post", "/api/elements", { name: "Claims register", type: "ApplicationComponent" })).id;
    viewId = (await send("post", "/api/views", { name: "Claims landscape" })).id;
    nodeId = (await send("post", `/api/views/${viewId}/nodes`, { element_id: elementId, x: 40, y: 40 })).id;
  }, 120_000);
  afterAll(() => context?.close());

  test("the modeler links to Versions; a version is made there and listed", async () => {
    await page.goto(`${server.base}/workspaces/${workspaceId}`);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Versions" }).click();
    await page.getByRole("heading", { name: "Versions" }).waitFor();
    await page.getByLabel("New version's name").fill("Before lunch");
    await page.getByRole("button", { name: "Create version" }).click();
    await page.locator('tr[data-version="Before lunch"]').waitFor();
  });

  test("after a rename and a move, the comparison lists the rename and draws the move", async () => {
    await send("put", `/api/elements/${elementId}`, { name: "Claims ledger" });
    await send("put", `/api/views/${viewId}/nodes/${nodeId}`, { x: 400, y: 200 });
    await page.getByRole("button", { name: "Compare" }).click();
    const diff = page.locator(".diff");
    await diff.waitFor();
    await expect(diff.getByText("Claims register", { exact: false }).first().isVisible()).resolves.toBe(true);
    await expect(diff.locator(".field-changes").first().innerText()).resolves.toMatch(
      /Claims register.*Claims ledger/s,
    );
    await expect(diff.getByText(/moved \(40, 40\) → \(400, 200\)/).isVisible()).resolves.toBe(true);
    // The view's picture is the server's drawing (diff-image), loaded: the moved node amber, its former place dashed.
    const picture = diff.locator(".diff-picture img");
    await expect(picture.count()).resolves.toBe(1);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".diff-picture img");
      return img?.complete && img.naturalWidth > 0;
    });
    const src = (await picture.getAttribute("src")) ?? "";
    expect(src).toContain(`/api/views/${viewId}/diff-image?`);
    const drawn = await (await page.request.get(`${server.base}${src}`)).text();
    expect(drawn).toContain(`<path class="diff-mark diff-changed" data-id="${nodeId}"`);
    expect(drawn).toContain(`<path class="diff-former" data-id="${nodeId}" d="M40 40`);
    // Each version exports as it was, as XML and as ZIP.
    const row = page.locator('tr[data-version="Before lunch"]');
    const xml = await page.request.get(
      `${server.base}${await row.getByRole("link", { name: "as Open Exchange XML" }).getAttribute("href")}`,
    );
    expect(xml.headers()["content-type"]).toContain("application/xml");
    expect(await xml.text()).toContain("Claims register");
    const zip = await page.request.get(
      `${server.base}${await row.getByRole("link", { name: "as ZIP" }).getAttribute("href")}`,
    );
    expect(zip.status()).toBe(200);
    expect(zip.headers()["content-type"]).toBe("application/zip");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "versions-compare");
  });

  test("restoring the version asks first, then the old name is back", async () => {
    await page.locator('tr[data-version="Before lunch"]').getByRole("button", { name: "Restore" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
    await page.locator("tr", { hasText: "automatic" }).first().waitFor();
    const res = await page.request.get(`${server.base}/api/elements/${elementId}`);
    expect(((await res.json()) as { name: string }).name).toBe("Claims register");
  });
  test("the History panel shows the rename with who and via what; Activity lists the changes", async () => {
    await page.goto(`${server.base}/workspaces/${workspaceId}`);
    await page.locator('[data-element-id]:has-text("Claims register")').first().click();
    const panel = page.locator(".history-panel");
    await panel.locator(".history-entry").first().waitFor();
    const text = await panel.innerText();
    expect(text).toMatch(/Claims register.*Claims ledger/s);
    expect(text).toContain("Demo Architect");
    expect(text).toContain("via browser");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "history-panel");
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Activity" }).click();
    const list = page.getByRole("list", { name: "Changes" });
    await list.locator(".history-entry").first().waitFor();
    expect(await list.locator(".history-entry").count()).toBeGreaterThanOrEqual(4);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "activity");
  });
});
