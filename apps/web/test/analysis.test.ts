import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * Analysis in the modeler, in real Chromium on the demo model: "what depends on the Mainframe?" lists its
 * dependents by layer and outlines them on the open view, the layered view is coloured by Criticality (and the
 * colouring saved for the workspace), derived relationships are marked as such, an impact view is created, and two
 * plateaus are compared.
 */

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  ({ context, page } = await signedIn(browser, server.base, "archi"));
  await page.setViewportSize({ width: 1500, height: 900 });
  await page.getByRole("link", { name: "Car insurance claims" }).click();
  await page.locator('svg.canvas g[data-node-id][data-label^="Mainframe,"]').waitFor();
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const node = (name: string) => page.locator(`svg.canvas g[data-node-id][data-label^="${name},"]`).first();
const panel = () => page.getByRole("complementary", { name: "Properties" });

describe("analysis in the modeler", () => {
  test("what depends on the Mainframe: listed by layer with paths, highlighted on the view", async () => {
    await node("Mainframe").click();
    await panel().getByRole("button", { name: "What depends on this?" }).click();
    const list = panel().getByRole("list", { name: "Affected elements" });
    await list.getByText("Policy administration").waitFor();
    const policy = list.locator('li[data-impact-element="Policy administration"]');
    expect(await policy.textContent()).toContain("via Realization → Serving");
    expect(await list.textContent()).toContain("Technology");
    expect(await list.textContent()).toContain("Application");

    await panel().getByRole("button", { name: "Highlight on view" }).click();
    expect(await node("Policy administration").getAttribute("data-mark")).toBe("hit");
    expect(await node("Mainframe").getAttribute("data-mark")).toBe("hit");
    // The CRM system runs on the server farm, not the mainframe: dimmed.
    expect(await node("CRM system").getAttribute("data-mark")).toBe("dim");
    expect(await page.locator("svg.canvas rect.impact-outline").count()).toBeGreaterThan(2);
  });

  test("the layered view coloured by Criticality, with its legend, saved for the workspace", async () => {
    await page.getByLabel("Colour by").selectOption({ label: "Criticality" });
    const legend = page.getByRole("region", { name: "Colour legend" });
    await legend.waitFor();
    expect(await legend.textContent()).toContain("Colour by: Criticality");
    expect(await legend.textContent()).toContain("High");
    // High is red, Low green: the traffic-light colours of the server's heatmap.
    expect(await node("Mainframe").innerHTML()).toContain('fill="#d9352b"');
    expect(await node("CRM system").innerHTML()).toContain('fill="#f5c218"');
    expect(await seriousViolations(page), "impact highlight and heatmap").toEqual([]);
    await screenshot(page, "analysis");

    await page.getByRole("button", { name: "Save colouring" }).click();
    await page.getByLabel("Colouring name").fill("Criticality RAG");
    await page.getByRole("button", { name: "Save for the workspace" }).click();
    await page.getByRole("button", { name: "Forget 'Criticality RAG'" }).waitFor();
    const ws = (await (await page.request.get(`${server.base}/api`)).json()) as { workspace: { id: string } };
    const saved = (await (
      await page.request.get(`${server.base}/api/workspaces/${ws.workspace.id}/colourings`)
    ).json()) as { name: string; color_by: string }[];
    expect(saved.map((c) => [c.name, c.color_by])).toEqual([["Criticality RAG", "Criticality"]]);

    await page.getByRole("button", { name: "Clear colours" }).click();
    expect(await node("Mainframe").innerHTML()).not.toContain('fill="#d9352b"');
    // The view's stored colours never changed.
    const view = await (await page.request.get(`${server.base}/api/views/v-layered`)).text();
    expect(view).not.toContain("d9352b");
  });

  test("derived relationships are marked derived, with their chain", async () => {
    await panel().getByRole("button", { name: "Derived relationships" }).click();
    const derived = panel().locator('li[data-derived="Serving to Policy administration"]');
    await derived.waitFor();
    expect(await derived.textContent()).toContain("derived");
    expect(await derived.textContent()).toContain(
      "Mainframe Realization Claim files service, then Claim files service Serving Policy administration",
    );
    expect(await derived.textContent()).toContain("certain, DR3");
  });

  test("a view of the impact, laid out by layer", async () => {
    await panel().getByRole("button", { name: "Create view" }).click();
    await page.locator('svg.canvas[aria-label*="Impact of Mainframe"]').waitFor();
    await node("Policy administration").waitFor();
    expect(await node("Claims administration service").count()).toBe(1);
    await screenshot(page, "analysis-impact-view");
  });

  test("two plateaus compared: added, removed, kept and the picture of the gap", async () => {
    await page.getByLabel("Search the model by name").fill("Claims today");
    await page.locator('[data-element-id]:has-text("Claims today")').first().click();
    await panel().getByLabel("Compare with").selectOption({ label: "Online claims (2027)" });
    const added = panel().getByRole("list", { name: "Added" });
    await added.waitFor();
    expect(await added.textContent()).toContain("Web portal");
    expect(await panel().getByRole("list", { name: "Gaps" }).textContent()).toContain("Online claim registration");
    const picture = panel().locator("img.gap-image");
    await expect.poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(100);
    await picture.scrollIntoViewIfNeeded();
    expect(await seriousViolations(page), "plateau comparison").toEqual([]);
    await screenshot(page, "analysis-plateaus");
  });

  test("right-click on a node: the element menu's 'What depends on this?' opens the impact list", async () => {
    await node("Policy administration").click({ button: "right" });
    const menu = page.getByRole("menu", { name: "Actions for Policy administration" });
    await menu.waitFor();
    // The first entry has the focus; the menu is clean for axe.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("What depends on this?");
    expect(await seriousViolations(page), "element context menu").toEqual([]);
    await screenshot(page, "analysis-context-menu");
    await menu.getByRole("menuitem", { name: "What depends on this?" }).click();
    await menu.waitFor({ state: "detached" });
    const list = panel().getByRole("list", { name: "Affected elements" });
    await list.locator('li[data-impact-element="Claims administration service"]').waitFor();
    // Focus moved to the impact section's heading.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("impact-title");
  });

  test("keyboard: Shift+F10 on a tree item opens the menu, arrows choose, Enter opens derived relationships; Escape gives focus back", async () => {
    await page.getByLabel("Search the model by name").fill("Mainframe");
    const row = page.locator('[role="treeitem"][data-element-id="e-mainframe"]');
    await row.focus();
    await page.keyboard.press("Shift+F10");
    const menu = page.getByRole("menu", { name: "Actions for Mainframe" });
    await menu.waitFor();
    // The menu puts the focus on its first entry once it is drawn; keys act on the menu from then on.
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    await expect.poll(focused).toBe("What depends on this?");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-element-id"))).toBe("e-mainframe");
    await page.keyboard.press("ContextMenu");
    await menu.waitFor();
    await expect.poll(focused).toBe("What depends on this?");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Derived relationships");
    await page.keyboard.press("Enter");
    const derived = panel().locator('li[data-derived="Serving to Policy administration"]');
    await derived.waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("derived-title");
    expect(await seriousViolations(page), "derived relationships from the menu").toEqual([]);
    await screenshot(page, "analysis-derived-from-menu");
  });
});
