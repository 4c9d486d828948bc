import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The HTML report and share links in real Chromium against the real server: the report downloaded from the Export
 * menu's link, unpacked and opened from file:// (tree, a view's SVG clicked through to an element's page, search,
 * a deep link); a view shared from the modeler's Share dialog and opened in a fresh browser without an account (the
 * view shows, the API and other views do not, axe-clean); the link revoked from the Share links page answers 404.
 */

const ARCHISURANCE = fileURLToPath(
  new URL("../../../../shared/archimate/models/archi-tests/archisurance_archi-export.xml", import.meta.url),
);

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("reports and share links", () => {
  let context: BrowserContext;
  let page: Page;
  let workspaceId = "";
  let views: { id: string; name: string }[] = [];
  let shareUrl = "";

  beforeAll(async () => {
    ({ context, page } = await signedIn(browser, server.base, "archi"));
    const created = await page.request.post(`${server.base}/api/workspaces`, {
      headers: { origin: server.base },
      data: { name: "Report and share" },
    });
    workspaceId = ((await created.json()) as { id: string }).id;
    const imported = await page.request.post(`${server.base}/api/import`, {
      headers: { origin: server.base, "content-type": "application/xml" },
      data: readFileSync(ARCHISURANCE, "utf8"),
    });
    expect(imported.status(), await imported.text()).toBe(200);
    views = (await (await page.request.get(`${server.base}/api/views`)).json()) as typeof views;
  }, 120_000);
  afterAll(() => context?.close());

  test("the report from the Export menu works from file://: tree, view click to element, search, deep link", async () => {
    await page.goto(`${server.base}/workspaces/${workspaceId}`);
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const link = page.getByRole("link", { name: "HTML report" });
    await link.waitFor();
    const href = (await link.getAttribute("href")) ?? "";
    expect(href).toBe("/api/export?format=html");
    const zip = await page.request.get(`${server.base}${href}`);
    expect(zip.status()).toBe(200);
    const dir = mkdtempSync(path.join(tmpdir(), "ams-report-web-"));
    writeFileSync(path.join(dir, "report.zip"), await zip.body());
    execFileSync("python3", [
      "-c",
      "import sys,zipfile;zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
      path.join(dir, "report.zip"),
      path.join(dir, "site"),
    ]);
    const index = pathToFileURL(path.join(dir, "site", "index.html")).href;

    const offline = await browser.newContext({ viewport: { width: 1280, height: 800 }, offline: true });
    const report = await offline.newPage();
    const errors: string[] = [];
    report.on("pageerror", (e) => errors.push(String(e)));
    await report.goto(index);
    const tree = report.getByRole("navigation", { name: "Model tree" });
    await tree.locator("summary", { hasText: "Business" }).first().waitFor();
    const content = report.frameLocator("#content");
    await content.getByRole("heading", { level: 1 }).waitFor();

    // A view from the tree, then an element clicked on its SVG.
    // Top-level folders are open: the model's own "Views" folder shows its views.
    await tree.getByRole("link", { name: "Layered View", exact: true }).click();
    await content.getByRole("heading", { name: "Layered View", level: 1 }).waitFor();
    await content.locator(".diagram svg").waitFor();
    await screenshot(report, "report-view");
    const node = content.locator('.diagram a[href^="../elements/"]').first();
    const nodeHref = (await node.getAttribute("href")) ?? "";
    await node.click();
    await content.getByRole("heading", { name: "Appears in views" }).waitFor();
    expect(await content.locator("body").getAttribute("data-route")).toMatch(/^#\/elements\//);
    await content.getByRole("link", { name: "Layered View" }).first().waitFor();
    await screenshot(report, "report-element");
    // The address bar follows the page shown: a deep link to it.
    expect(new URL(report.url()).hash).toMatch(/^#\/elements\//);
    expect(nodeHref).toMatch(/^\.\.\/elements\/.+\.html$/);

    // Search, with no network.
    await report.getByRole("searchbox", { name: "Search" }).fill("mutation");
    const results = report.getByRole("list", { name: "Search results" });
    await results.getByRole("link").first().waitFor();
    await results.getByRole("link", { name: /^Customer data mutation Service \(/ }).click();
    await content.getByRole("heading", { name: "Customer data mutation Service", level: 1 }).waitFor();
    await screenshot(report, "report-search");

    // A deep link opened as is.
    const deep = await offline.newPage();
    const view = views.find((v) => v.name === "Business Function View") ?? views[0]!;
    await deep.goto(`${index}#/views/${encodeURIComponent(view.id)}`);
    await deep.frameLocator("#content").getByRole("heading", { name: view.name, level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await offline.close();
  }, 180_000);

  test("a view shared from the modeler opens without an account, and nothing else does", async () => {
    const view = views.find((v) => v.name === "Layered View")!;
    await page.goto(`${server.base}/workspaces/${workspaceId}?view=${view.id}`);
    await page.getByRole("button", { name: "Share…" }).click();
    const dialog = page.getByRole("dialog", { name: "Share" });
    await dialog.getByLabel(/This view/).check();
    await dialog.getByRole("button", { name: "Create link" }).click();
    const url = dialog.getByLabel(/Anyone with this link/);
    await url.waitFor();
    shareUrl = await url.inputValue();
    expect(shareUrl).toMatch(new RegExp(`^${server.base}/s/[A-Za-z0-9_-]{43}$`));
    await dialog.locator("tr[data-link]").first().waitFor();
    await screenshot(page, "share-dialog");
    await dialog.getByRole("button", { name: "Close" }).click();

    const anonymous = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitor = await anonymous.newPage();
    const res = await visitor.goto(shareUrl);
    expect(res?.status()).toBe(200);
    expect(res?.headers()["set-cookie"]).toBeUndefined();
    await visitor.getByRole("heading", { name: "Layered View", level: 1 }).waitFor();
    await visitor.locator(".diagram svg .node").first().waitFor();
    await screenshot(visitor, "share-view-anonymous");
    expect(await seriousViolations(visitor)).toEqual([]);
    expect(await anonymous.cookies()).toEqual([]);
    // No app shell, no API, no other view.
    expect(await visitor.locator("#app, .main-nav").count()).toBe(0);
    const other = views.find((v) => v.id !== view.id)!;
    for (const [p, status] of [
      ["/api/me", 401],
      ["/api/views", 401],
      [`/api/views/${other.id}/image`, 401],
      [`${new URL(shareUrl).pathname}/views/${other.id}.html`, 404],
      [`${new URL(shareUrl).pathname}/index.html`, 404],
    ] as const) {
      expect((await visitor.request.get(`${server.base}${p}`)).status(), p).toBe(status);
    }
    await anonymous.close();
  }, 180_000);

  test("the report shared as a link browses like the download; revoking a link makes it 404", async () => {
    await page.goto(`${server.base}/workspaces/${workspaceId}`);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Share links" }).click();
    await page.getByRole("heading", { name: "Share links", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Create link" }).click();
    const reportUrl = await page.getByLabel(/Anyone with this link/).inputValue();

    const anonymous = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitor = await anonymous.newPage();
    await visitor.goto(reportUrl);
    expect(new URL(visitor.url()).pathname).toBe(`${new URL(reportUrl).pathname}/index.html`);
    const tree = visitor.getByRole("navigation", { name: "Model tree" });
    await tree.getByRole("link", { name: "Layered View", exact: true }).click();
    const content = visitor.frameLocator("#content");
    await content.getByRole("heading", { name: "Layered View", level: 1 }).waitFor();
    await content.locator(".diagram svg").waitFor();
    await screenshot(visitor, "share-report-anonymous");
    expect(await seriousViolations(visitor)).toEqual([]);

    // Revoke the view link from the list; both it and (after) the report link answer 404.
    await page.locator("tr[data-link]").first().waitFor();
    await screenshot(page, "share-links-page");
    const rows = page.locator("tr[data-link]");
    expect(await rows.count()).toBe(2);
    await rows.filter({ hasText: "View “Layered View”" }).getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => rows.count()).toBe(1);
    const gone = await visitor.goto(shareUrl);
    expect(gone?.status()).toBe(404);
    await visitor.getByRole("heading", { name: "Not found" }).waitFor();
    await screenshot(visitor, "share-revoked");
    await anonymous.close();
  }, 180_000);
});
