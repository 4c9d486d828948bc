import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { canvasPoint } from "./support/canvas.ts";
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
let billingId = "";
let billingNodeId = "";
let fraudNodeId = "";

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
  billingId = String(billing.id);
  viewId = String((await call(ana.page, "POST", "/api/views", { name: "Landscape" })).id);
  const node = await call(ana.page, "POST", `/api/views/${viewId}/nodes`, {
    element_id: claimsId,
    x: 60,
    y: 60,
    w: 160,
    h: 70,
  });
  claimsNodeId = String(node.id);
  const billingNode = await call(ana.page, "POST", `/api/views/${viewId}/nodes`, {
    element_id: billing.id,
    x: 60,
    y: 200,
    w: 160,
    h: 70,
  });
  billingNodeId = String(billingNode.id);
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
  fraudNodeId = ((await placed.json()) as { id: string }).id;
  await ben.page.locator(`svg.canvas [data-node-id="${fraudNodeId}"]`).waitFor();
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
}, 60_000);

test("Ben's undo undoes only his own edits, and says why when Ana changed the same object after him", async () => {
  const stored = async (nodeId: string) => {
    const view = (await (await ana.page.request.get(`${server.base}/api/views/${viewId}`)).json()) as {
      nodes: { id: string; x: number }[];
    };
    return view.nodes.find((n) => n.id === nodeId)?.x;
  };
  // Ben places a new Application Service, then nudges Billing engine's node 10 px right.
  await ben.page.locator('.palette button[data-type="ApplicationService"]').click();
  const at = await canvasPoint(ben.page, 140, 420);
  await ben.page.mouse.click(at.x, at.y);
  await treeItem(ana.page, "Application Service").first().waitFor();
  await expect.poll(() => ben.page.locator("#el-name").inputValue()).toBe("Application Service");
  const billing = await canvasPoint(ben.page, 140, 235);
  await ben.page.mouse.click(billing.x, billing.y);
  await expect.poll(() => ben.page.locator("#el-name").inputValue()).toBe("Billing engine");
  await ben.page.locator("svg.canvas").focus();
  await ben.page.keyboard.press("Shift+ArrowRight");
  await expect.poll(() => stored(billingNodeId)).toBe(70);

  // Ana moves another node; Ben's undo takes back his nudge only, her move stays.
  await call(ana.page, "PUT", `/api/views/${viewId}/nodes/${fraudNodeId}`, { x: 440, y: 200, w: 160, h: 70 });
  await expect.poll(() => nodeLeft(ben.page, fraudNodeId)).toBeGreaterThanOrEqual(440);
  await ben.page.keyboard.press("Control+z");
  await expect.poll(() => stored(billingNodeId)).toBe(60);
  expect(await stored(fraudNodeId)).toBe(440);

  // Ana renames Ben's new element; his next undo (its creation) would delete her change: refused, and explained.
  await treeItem(ana.page, "Application Service").first().click();
  await ana.page.locator("#el-name").fill("Fraud scoring");
  await ana.page.locator("#el-name").press("Enter");
  await treeItem(ben.page, "Fraud scoring").first().waitFor();
  await ben.page.locator("svg.canvas").focus();
  await ben.page.keyboard.press("Control+z");
  const anaName = ((await (await ana.page.request.get(`${server.base}/api/me`)).json()) as { name: string }).name;
  await ben.page
    .getByText(
      `${anaName} changed 'Fraud scoring' after you; your change (New Application Service) cannot be undone here.`,
    )
    .waitFor();
  await screenshot(ben.page, "live-undo-refused");
  const names = ((await (await ana.page.request.get(`${server.base}/api/elements`)).json()) as { name: string }[]).map(
    (e) => e.name,
  );
  expect(names).toContain("Fraud scoring");
  await expect.poll(() => treeItem(ben.page, "Fraud scoring").count()).toBe(1);
}, 60_000);

test("what Ben is typing stays when Ana's change arrives: another field merges, the same field asks", async () => {
  const element = async () => {
    const all = (await (await ana.page.request.get(`${server.base}/api/elements`)).json()) as {
      name: string;
      documentation: string | null;
    }[];
    return all.find((e) => e.name.startsWith("Billing"));
  };
  for (const page of [ana.page, ben.page]) {
    await treeItem(page, "Billing engine").first().click();
    await expect.poll(() => page.locator("#el-name").inputValue()).toBe("Billing engine");
  }
  // Ben types a new name (not saved yet) while Ana's documentation arrives: his draft stays, her text shows.
  await ben.page.locator("#el-name").fill("Billing core");
  await ana.page.locator("#el-doc").fill("Runs nightly");
  await ana.page.locator("#el-name").focus();
  await expect.poll(() => ben.page.locator("#el-doc").inputValue()).toBe("Runs nightly");
  expect(await ben.page.locator("#el-name").inputValue()).toBe("Billing core");
  await ben.page.locator("#el-name").press("Enter");
  await expect.poll(element).toEqual(expect.objectContaining({ name: "Billing core", documentation: "Runs nightly" }));
  expect(await ben.page.locator(".conflict").count()).toBe(0);

  // Ben types documentation while Ana's documentation arrives: his draft stays; leaving the field shows both.
  await ben.page.locator("#el-doc").fill("Runs hourly");
  await ana.page.locator("#el-doc").fill("Runs at noon");
  await ana.page.locator("#el-name").focus();
  await ben.page.getByText("Updated ApplicationComponent 'Billing core'").first().waitFor();
  expect(await ben.page.locator("#el-doc").inputValue()).toBe("Runs hourly");
  await ben.page.locator("#el-name").focus();
  const box = ben.page.getByRole("alert").filter({ hasText: "Changed by someone else" });
  await box.waitFor();
  expect(await box.locator(".conflict-mine").first().textContent()).toBe("Runs hourly");
  expect(await box.locator(".conflict-theirs").first().textContent()).toBe("Runs at noon");
  expect((await element())?.documentation).toBe("Runs at noon");
  await screenshot(ben.page, "live-typing-conflict");
  await box.getByRole("button", { name: "Keep mine" }).click();
  await expect.poll(async () => (await element())?.documentation).toBe("Runs hourly");
  expect((await element())?.name).toBe("Billing core");
}, 60_000);

test("an MCP assistant's edit shows live on Ben's screen, labelled with the assistant's name", async () => {
  const me = (await (await ana.page.request.get(`${server.base}/api/me`)).json()) as {
    active_organization_id: string;
    name: string;
  };
  const { token } = await call(ana.page, "POST", "/api/settings/api-tokens", {
    organization_id: me.active_organization_id,
    workspace_id: workspaceId,
    name: "Claude",
  });
  const client = new Client({ name: "live-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${String(token)}` } },
    }),
  );
  const renamed = await client.callTool({
    name: "update_element",
    arguments: { element_id: billingId, name: "Billing platform" },
  });
  await client.close();
  expect(renamed.isError).toBeFalsy();
  await treeItem(ben.page, "Billing platform").first().waitFor();
  await ben.page.locator("svg.canvas").getByText("Billing platform").waitFor();
  await ben.page.getByText(`Assistant Claude for ${me.name}: Renamed ApplicationComponent`).first().waitFor();
  await screenshot(ben.page, "live-mcp-edit");
}, 60_000);
