import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * Issue 23's "done when", in Chromium on real PostgreSQL: an editor (A, Demo Contributor) renames an element, moves
 * its node and adds a property after a version "Before lunch"; another user (B, Demo Architect, in another browser
 * context) sees the three changes with who and when in the History panel, compares "Before lunch" with the current
 * state on the Versions page and sees the server's picture of the view's changes, restores the element with "Restore
 * this state", and undeletes an element A deleted, its relationship and node included, from the Activity entry.
 */

let database: TestDatabase;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase("ams_web_history_done");
  [server, browser] = await Promise.all([startServer({ DATABASE_URL: database.url }), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
});

type Sent = { id: string; name: string; revision: number };

describe("history, versions and restore across two people", () => {
  let a: { context: BrowserContext; page: Page };
  let b: { context: BrowserContext; page: Page };
  const ids = { workspace: "", claims: "", payments: "", fraud: "", serving: "", view: "", node: "", fraudNode: "" };

  const send = async (page: Page, method: "post" | "put" | "delete", path: string, data?: unknown) => {
    const res = await page.request[method](`${server.base}${path}`, { headers: { origin: server.base }, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (res.status() === 204 ? {} : await res.json()) as Sent;
  };
  const get = async <T>(page: Page, path: string) => {
    const res = await page.request.get(`${server.base}${path}`);
    return { status: res.status(), body: (res.status() < 300 ? await res.json() : null) as T };
  };

  beforeAll(async () => {
    [a, b] = await Promise.all([signedIn(browser, server.base, "contrib"), signedIn(browser, server.base, "archi")]);
    // B sets the workspace up and names the state "Before lunch".
    ids.workspace = (await send(b.page, "post", "/api/workspaces", { name: "Claims handling" })).id;
    await send(b.page, "post", `/api/workspaces/${ids.workspace}/activate`);
    const element = async (name: string) =>
      (await send(b.page, "post", "/api/elements", { name, type: "ApplicationComponent" })).id;
    ids.claims = await element("Claims register");
    ids.payments = await element("Payments");
    ids.fraud = await element("Fraud check");
    ids.serving = (
      await send(b.page, "post", "/api/relationships", { type: "Serving", source: ids.fraud, target: ids.claims })
    ).id;
    await send(b.page, "post", "/api/property-definitions", { name: "Owner" });
    ids.view = (await send(b.page, "post", "/api/views", { name: "Claims landscape" })).id;
    const node = async (element_id: string, x: number, y: number) =>
      (await send(b.page, "post", `/api/views/${ids.view}/nodes`, { element_id, x, y })).id;
    ids.node = await node(ids.claims, 40, 40);
    await node(ids.payments, 320, 40);
    ids.fraudNode = await node(ids.fraud, 40, 240);
    await send(b.page, "post", `/api/views/${ids.view}/connections`, {
      source: ids.fraudNode,
      target: ids.node,
      relationship_id: ids.serving,
    });
    await send(b.page, "post", `/api/workspaces/${ids.workspace}/versions`, { name: "Before lunch" });

    // A, an editor, in the browser: a rename, a move, a property; and deletes "Fraud check".
    await send(a.page, "post", `/api/workspaces/${ids.workspace}/activate`);
    await send(a.page, "put", `/api/elements/${ids.claims}`, { name: "Claims ledger" });
    await send(a.page, "put", `/api/views/${ids.view}/nodes/${ids.node}`, { x: 320, y: 240 });
    await send(a.page, "put", `/api/elements/${ids.claims}`, { properties: { Owner: "Claims team" } });
    await send(a.page, "delete", `/api/elements/${ids.fraud}`);
  }, 120_000);
  afterAll(async () => {
    await a?.context.close();
    await b?.context.close();
  });

  test("B sees A's rename, property and move with who and when in the History panel", async () => {
    const page = b.page;
    await page.goto(`${server.base}/workspaces/${ids.workspace}`);
    await page.locator('[data-element-id]:has-text("Claims ledger")').first().click();
    const panel = page.locator(".history-panel");
    await panel.locator(".history-entry").nth(2).waitFor();
    const entries = await panel.locator(".history-entry").allTextContents();
    // Newest first: the property, the rename, then B's creation.
    expect(entries[0]).toMatch(/changed by Demo Contributor.*via browser/is);
    expect(entries[0]).toContain("Claims team");
    expect(entries[1]).toMatch(/changed by Demo Contributor.*via browser/is);
    expect(entries[1]).toMatch(/Claims register.*Claims ledger/s);
    expect(entries[2]).toMatch(/created by Demo Architect/i);
    // When: the panel says when each change was made (a relative or absolute time, never empty).
    await expect(panel.locator(".history-entry time").count()).resolves.toBeGreaterThanOrEqual(3);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "done-history-element");

    // The move is the view's change: open the view, its History shows the node moved by A.
    await page.mouse.click(920, 720); // an empty spot of the canvas: nothing selected on it
    await page.getByRole("tab", { name: /Views/ }).click();
    await page.locator(".view-item", { hasText: "Claims landscape" }).click();
    const viewPanel = page.locator(".history-panel");
    await viewPanel.getByText(/moved/i).first().waitFor();
    const viewText = await viewPanel.textContent();
    expect(viewText).toContain("Demo Contributor");
    expect(viewText).toMatch(/Node Claims ledger moved/i);
    await screenshot(page, "done-history-view");
  });

  test("B compares “Before lunch” with now on the Versions page and sees the view's diff picture", async () => {
    const page = b.page;
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Versions" }).click();
    await page.locator('tr[data-version="Before lunch"]').waitFor();
    // The only version is preselected as "From"; "To" is the current state.
    await page.getByRole("button", { name: "Compare" }).click();
    const diff = page.locator(".diff");
    await diff.waitFor();
    const listed = await diff.textContent();
    expect(listed).toMatch(/Claims register.*Claims ledger/s);
    expect(listed).toContain("Claims team");
    expect(listed).toMatch(/Removed\s+Fraud check/);
    expect(listed).toMatch(/moved \(40, 40\) → \(320, 240\)/);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".diff-picture img");
      return img?.complete && img.naturalWidth > 0;
    });
    const src = (await diff.locator(".diff-picture img").first().getAttribute("src")) ?? "";
    const drawn = await (await page.request.get(`${server.base}${src}`)).text();
    expect(drawn).toContain(`<path class="diff-mark diff-changed" data-id="${ids.node}"`);
    expect(drawn).toContain(`<path class="diff-mark diff-removed" data-id="${ids.fraudNode}"`);
    expect(drawn).toContain("Changes from “Before lunch”");
    await diff.locator(".diff-picture").first().scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
    // README's History section shows this screenshot (docs/versions-compare.png, copied from test-artifacts).
    await screenshot(page, "done-versions-compare");
  });

  test("B restores the element with “Restore this state” in its History panel", async () => {
    const page = b.page;
    await page.goto(`${server.base}/workspaces/${ids.workspace}`);
    await page.locator('[data-element-id]:has-text("Claims ledger")').first().click();
    const panel = page.locator(".history-panel");
    const created = panel.locator(".history-entry", { hasText: /created by Demo Architect/i });
    await created.getByRole("button", { name: "Restore this state" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Restore" }).click();
    await page.locator('[data-element-id]:has-text("Claims register")').first().waitFor();
    const el = await get<{ name: string }>(page, `/api/elements/${ids.claims}`);
    expect(el.body.name).toBe("Claims register");
  });

  test("B undeletes the element A deleted, its relationship and node included, from the Activity entry", async () => {
    const page = b.page;
    expect((await get(page, `/api/elements/${ids.fraud}`)).status).toBe(404);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Activity" }).click();
    const list = page.getByRole("list", { name: "Changes" });
    // The restore of the previous test is named by the element's name, and offers no Undelete: it deleted nothing a
    // person deleted (only the property value the restore took away).
    const restore = list.locator(".history-entry", { hasText: "Restored element 'Claims register'" });
    await restore.first().waitFor();
    expect(await restore.first().getByRole("button", { name: "Undelete" }).count()).toBe(0);
    const deletion = list.locator(".history-entry", { hasText: "Fraud check" }).filter({ hasText: "Demo Contributor" });
    await deletion.first().waitFor();
    expect(await deletion.first().textContent()).toMatch(/Deleted/i);
    await deletion.first().getByRole("button", { name: "Undelete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Undelete" }).click();
    await page.getByText(/^Undone: .*Fraud check.*objects back/).waitFor();
    expect((await get(page, `/api/elements/${ids.fraud}`)).status).toBe(200);
    const rels = await get<{ id: string }[]>(page, `/api/elements/${ids.fraud}/relationships`);
    expect(rels.body.map((r) => r.id)).toContain(ids.serving);
    const view = await get<{ nodes: { id: string }[] }>(page, `/api/views/${ids.view}`);
    expect(view.body.nodes.map((n) => n.id)).toContain(ids.fraudNode);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "done-activity-undelete");
  });
});
