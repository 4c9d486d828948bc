import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * Presence (issue 24), in real Chromium with two browser contexts on the same view: archi and contrib each see the
 * other's avatar in the header and on the view, the other's selection outlined on the canvas in their colour, and
 * "… is editing this element" in the properties panel when both have the same element selected. Axe-clean.
 */
let server: RunningServer;
let browser: Browser;
let ana: { context: BrowserContext; page: Page };
let ben: { context: BrowserContext; page: Page };
let workspaceId = "";
let viewId = "";

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  [ana, ben] = await Promise.all([signedIn(browser, server.base, "archi"), signedIn(browser, server.base, "contrib")]);
  const post = async (path: string, data: unknown) => {
    const res = await ana.page.request.post(`${server.base}${path}`, { headers: { origin: server.base }, data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: string };
  };
  workspaceId = (await post("/api/workspaces", { name: "Together" })).id;
  const element = await post("/api/elements", { name: "Claims register", type: "ApplicationComponent" });
  await post("/api/elements", { name: "Billing", type: "ApplicationComponent" });
  viewId = (await post("/api/views", { name: "Landscape" })).id;
  await post(`/api/views/${viewId}/nodes`, { element_id: element.id, x: 60, y: 60, w: 160, h: 70 });
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
const choose = (page: Page, name: string) => page.locator(`[data-element-id]:has-text("${name}")`).first().click();

test("each sees the other's avatar, selection outline and 'is editing this element'", async () => {
  await open(ana.page);
  await open(ben.page);
  await choose(ana.page, "Claims register");

  // Ben: Ana's avatar in the header and on the view, her selection outlined on the canvas.
  const header = ben.page.getByRole("list", { name: "Also in this workspace" });
  await header.getByRole("listitem").first().waitFor();
  expect(await header.getByRole("listitem").count()).toBe(1);
  await ben.page.getByRole("list", { name: "Also on this view" }).getByRole("listitem").first().waitFor();
  const outline = ben.page.locator("svg.canvas [data-other-selection]");
  await outline.first().waitFor();
  const color = await outline.locator("rect").first().getAttribute("stroke");
  expect(color).toMatch(/^#[0-9a-f]{6}$/);
  const avatarColor = await header
    .getByRole("listitem")
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(avatarColor).toBe(hexToRgb(color ?? ""));

  // Both on the same element: each is told the other is editing it.
  await choose(ben.page, "Claims register");
  await expect.poll(() => ben.page.getByText(/is editing this element/).count()).toBe(1);
  await expect.poll(() => ana.page.getByText(/is editing this element/).count()).toBe(1);
  const notice = await ben.page.getByText(/is editing this element/).textContent();
  const anaName = await ben.page
    .locator("svg.canvas [data-other-selection]")
    .first()
    .getAttribute("data-other-selection");
  expect(notice).toContain(`${anaName} is editing this element`);
  await screenshot(ben.page, "presence-ben-sees-ana");
  await screenshot(ana.page, "presence-ana-sees-ben");
  expect(await seriousViolations(ben.page)).toEqual([]);
  expect(await seriousViolations(ana.page)).toEqual([]);

  // Ana moves to another element: Ben's notice and the outline go.
  await choose(ana.page, "Billing");
  await expect.poll(() => ben.page.getByText(/is editing this element/).count()).toBe(0);
  await expect.poll(() => ben.page.locator("svg.canvas [data-other-selection]").count()).toBe(0);
}, 120_000);

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

test("in an 800 px wide header, more than three others show as two avatars and a '+N' chip that names the rest", async () => {
  const narrow = await signedIn(browser, server.base, "archi");
  try {
    await narrow.page.setViewportSize({ width: 800, height: 700 });
    // Six others present: the presence answers name them (the stream is held back so it does not replace them).
    const names = ["Ana Lima", "Ben Okafor", "Chen Wei", "Dara Nolan", "Eli Cohen", "Fay Moreau"];
    const present = names.map((name, i) => ({
      user: { id: `u${i}`, name },
      client_id: `tab-${i}`,
      view_id: viewId,
      selection: [],
      color: "#1a5e8f",
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    }));
    await narrow.page.route("**/events*", (route) => route.abort());
    await narrow.page.route("**/presence", (route) => route.fulfill({ json: { present, lease_seconds: 30 } }));
    await open(narrow.page);
    const header = narrow.page.getByRole("list", { name: "Also in this workspace" });
    await header.getByRole("listitem").first().waitFor();
    expect(await header.getByRole("listitem").count()).toBe(3);
    const chip = header.getByRole("listitem").last();
    expect(await chip.getAttribute("title")).toBe("Chen Wei, Dara Nolan, Eli Cohen, Fay Moreau");
    expect(await chip.textContent()).toContain("+4");
    // Nothing spills out of the page sideways.
    expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await screenshot(narrow.page, "presence-narrow-header");
    expect(await seriousViolations(narrow.page)).toEqual([]);
  } finally {
    await narrow.context.close();
  }
}, 60_000);
