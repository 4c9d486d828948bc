import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The modeler lives (issue 24), in real Chromium with two browser contexts on the same view: what archi (Ana) changes
 * — in her properties panel, through the API, or with an API token — shows in contrib's (Ben's) model tree, properties
 * panel and canvas without a reload, and Ben keeps his selection and zoom. Axe-clean.
 */
let server: RunningServer;
let browser: Browser;
let ana: { context: BrowserContext; page: Page };
let ben: { context: BrowserContext; page: Page };
let workspaceId = "";
let viewId = "";
let claimsId = "";
let claimsNodeId = "";

const call = async (page: Page, method: "POST" | "PUT" | "DELETE", path: string, data?: unknown) => {
  const res = await page.request.fetch(`${server.base}${path}`, { method, headers: { origin: server.base }, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return res.status() === 204 ? {} : ((await res.json()) as Record<string, unknown>);
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  [ana, ben] = await Promise.all([signedIn(browser, server.base, "archi"), signedIn(browser, server.base, "contrib")]);
  workspaceId = String((await call(ana.page, "POST", "/api/workspaces", { name: "Live" })).id);
  const claims = await call(ana.page, "POST", "/api/elements", {
    name: "Claims register",
    type: "ApplicationComponent",
  });
  claimsId = String(claims.id);
  const billing = await call(ana.page, "POST", "/api/elements", { name: "Billing", type: "ApplicationComponent" });
  viewId = String((await call(ana.page, "POST", "/api/views", { name: "Landscape" })).id);
  const node = await call(ana.page, "POST", `/api/views/${viewId}/nodes`, {
    element_id: claimsId,
    x: 60,
    y: 60,
    w: 160,
    h: 70,
  });
  claimsNodeId = String(node.id);
  await call(ana.page, "POST", `/api/views/${viewId}/nodes`, { element_id: billing.id, x: 60, y: 200, w: 160, h: 70 });
}, 240_000);
afterAll(async () => {
  await ana?.context.close();
  await ben?.context.close();
  await browser?.close();
  await server?.stop();
});

const open = async (page: Page) => {
  await page.goto(`${server.base}/workspaces/${workspaceId}?view=${viewId}`);
  await page.locator("svg.canvas").waitFor();
};
const treeItem = (page: Page, name: string) => page.locator(`[data-element-id]:has-text("${name}")`);
/** The node's left edge in diagram coordinates (its drawing's box, without the canvas's pan and zoom). */
const nodeLeft = (page: Page, nodeId: string) =>
  page.locator(`svg.canvas [data-node-id="${nodeId}"]`).evaluate((g) => Math.round((g as SVGGElement).getBBox().x));

test("Ana's rename, move, delete and an API token's create show on Ben's screen; his selection and zoom stay", async () => {
  await open(ana.page);
  await open(ben.page);
  // Ben selects Billing and zooms in: both must survive everything that follows.
  await treeItem(ben.page, "Billing").first().click();
  await expect.poll(() => ben.page.locator("#el-name").inputValue()).toBe("Billing");
  await ben.page.getByRole("button", { name: /zoom in/i }).click();
  const zoom = await ben.page.locator(".zoom-level").textContent();
  // Both streams are connected before the first change (presence shows the other).
  await ben.page.getByRole("list", { name: "Also in this workspace" }).getByRole("listitem").first().waitFor();
  await ana.page.getByRole("list", { name: "Also in this workspace" }).getByRole("listitem").first().waitFor();

  // A rename in Ana's properties panel: Ben's tree and panel (he has that element selected) show it.
  await treeItem(ana.page, "Billing").first().click();
  await ana.page.locator("#el-name").fill("Billing engine");
  await ana.page.locator("#el-name").press("Enter");
  await treeItem(ben.page, "Billing engine").first().waitFor();
  await expect.poll(() => ben.page.locator("#el-name").inputValue()).toBe("Billing engine");

  // A move: Ben's canvas draws the node at its new place.
  expect(await nodeLeft(ben.page, claimsNodeId)).toBeLessThan(100);
  await call(ana.page, "PUT", `/api/views/${viewId}/nodes/${claimsNodeId}`, { x: 420, y: 60, w: 160, h: 70 });
  await expect.poll(() => nodeLeft(ben.page, claimsNodeId)).toBeGreaterThanOrEqual(400);

  // An API token's create of an element and its node on the view: it appears in Ben's tree and canvas.
  const me = (await (await ana.page.request.get(`${server.base}/api/me`)).json()) as { active_organization_id: string };
  const { token } = await call(ana.page, "POST", "/api/settings/api-tokens", {
    organization_id: me.active_organization_id,
    workspace_id: workspaceId,
    name: "Nightly sync",
  });
  const bearer = { authorization: `Bearer ${String(token)}` };
  const created = await ana.page.request.post(`${server.base}/api/elements`, {
    headers: bearer,
    data: { name: "Fraud check", type: "ApplicationService" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const fraud = (await created.json()) as { id: string };
  const placed = await ana.page.request.post(`${server.base}/api/views/${viewId}/nodes`, {
    headers: bearer,
    data: { element_id: fraud.id, x: 420, y: 200, w: 160, h: 70 },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  await treeItem(ben.page, "Fraud check").first().waitFor();
  const fraudNode = (await placed.json()) as { id: string };
  await ben.page.locator(`svg.canvas [data-node-id="${fraudNode.id}"]`).waitFor();
  await ben.page
    .getByText(/\(API\)/)
    .first()
    .waitFor();
  await screenshot(ben.page, "live-ben-sees-changes");

  // A delete: the element leaves Ben's tree and its node his canvas.
  await call(ana.page, "DELETE", `/api/elements/${claimsId}`);
  await expect.poll(() => treeItem(ben.page, "Claims register").count()).toBe(0);
  await expect.poll(() => ben.page.locator(`svg.canvas [data-node-id="${claimsNodeId}"]`).count()).toBe(0);

  // Ben never reloaded: his selection and zoom are as he left them.
  expect(await ben.page.locator("#el-name").inputValue()).toBe("Billing engine");
  expect(await ben.page.locator(".zoom-level").textContent()).toBe(zoom);
  await screenshot(ben.page, "live-ben-after-delete");
  await screenshot(ana.page, "live-ana");
  expect(await seriousViolations(ben.page)).toEqual([]);
});
