import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * Issue 27's table view in Chromium on real PostgreSQL: reached from the workspace's navigation, a cell edited in
 * place with the keyboard, a property set on many selected rows, a block pasted from a spreadsheet, each one entry
 * on the Activity page; a bulk delete undone in one step; a type change refused naming the relationship; only the
 * rows in sight in the DOM; the relationships tab filtered, edited in place, bulk-edited and pasted into; at 390 px
 * too; axe-clean.
 */

let database: TestDatabase;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase("ams_web_table");
  [server, browser] = await Promise.all([startServer({ DATABASE_URL: database.url }), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
});

type Sent = {
  id: string;
  name: string;
  revision: number;
  documentation?: string | null;
  properties?: Record<string, unknown>;
};

describe("table view", () => {
  let s: { context: BrowserContext; page: Page };
  const ids: Record<string, string> = {};
  let workspace = "";

  const send = async (method: "post" | "put", path: string, data?: unknown) => {
    const res = await s.page.request[method](`${server.base}${path}`, { headers: { origin: server.base }, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as Sent;
  };
  const element = async (id: string) =>
    (await (await s.page.request.get(`${server.base}/api/elements/${id}`)).json()) as Sent;
  const relationship = async (id: string) =>
    (await (await s.page.request.get(`${server.base}/api/relationships/${id}`)).json()) as Sent;
  let gridName = "Elements";
  const grid = () => s.page.getByRole("grid", { name: gridName });
  /** The cell of the row showing element `id`, in the column headed `column`. */
  const cell = async (id: string, column: string) => {
    const headers = await grid().getByRole("columnheader").allTextContents();
    const index = headers.findIndex((h) => h.replace(/[▲▼]/g, "").trim() === column);
    expect(index, `column ${column} in ${headers.join(", ")}`).toBeGreaterThan(-1);
    return grid().locator(`[role=row][data-id="${id}"] [role=gridcell][aria-colindex="${index + 1}"]`);
  };
  /** The workspace's latest change group (revisions count groups: one per revision). */
  const activityCount = async () => {
    const res = await s.page.request.get(`${server.base}/api/workspaces/${workspace}/history?limit=1`);
    return ((await res.json()) as { items: { revision: number }[] }).items[0]?.revision ?? 0;
  };

  beforeAll(async () => {
    s = await signedIn(browser, server.base, "archi");
    workspace = (await send("post", "/api/workspaces", { name: "Application portfolio" })).id;
    await send("post", `/api/workspaces/${workspace}/activate`);
    await send("post", "/api/property-definitions", { name: "Owner" });
    for (const [key, name, type] of [
      ["billing", "Billing", "ApplicationComponent"],
      ["crm", "CRM", "ApplicationComponent"],
      ["portal", "Portal", "ApplicationComponent"],
      ["ledger", "Ledger", "ApplicationComponent"],
      ["customer", "Customer", "BusinessActor"],
      ["buyer", "Buyer", "BusinessRole"],
    ] as const) {
      ids[key] = (await send("post", "/api/elements", { name, type })).id;
    }
    await send("post", "/api/relationships", { type: "Assignment", source: ids.customer, target: ids.buyer });
    for (const [key, type, source, target] of [
      ["flow", "Flow", "billing", "ledger"],
      ["serves", "Serving", "ledger", "customer"],
      ["billingServes", "Serving", "billing", "customer"],
    ] as const) {
      ids[key] = (await send("post", "/api/relationships", { type, source: ids[source], target: ids[target] })).id;
    }
    // Enough rows that most of them are out of sight.
    for (let batch = 0; batch < 15; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send("post", "/api/elements", { name: `Item ${String(batch * 20 + i).padStart(3, "0")}`, type: "Node" }),
        ),
      );
    }
  }, 180_000);
  afterAll(async () => {
    await s?.context.close();
  });

  test("the Table page is reached from the workspace's navigation and draws only the rows in sight", async () => {
    const page = s.page;
    await page.goto(`${server.base}/workspaces/${workspace}`);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Table" }).click();
    await grid().waitFor();
    expect(await grid().getAttribute("aria-rowcount")).toBe("307"); // 306 elements and the header row
    const drawn = await grid().locator("[role=row][data-id]").count();
    expect(drawn).toBeGreaterThan(10);
    expect(drawn).toBeLessThan(60);
    // Scrolled to the end, the last rows are drawn with their position in the whole grid.
    await page.locator(".table-scroll").evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await grid().locator('[role=row][aria-rowindex="307"]').waitFor();
    expect(await grid().locator('[role=row][aria-rowindex="2"]').count()).toBe(0);
    await page.locator(".table-scroll").evaluate((el) => {
      el.scrollTop = 0;
    });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "table-view");
  });

  test("a cell is edited in place: Enter edits, Escape cancels, Enter saves and moves down", async () => {
    const page = s.page;
    const before = await activityCount();
    await (await cell(ids.billing as string, "Name")).click();
    await page.keyboard.press("Enter");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Billing engine");
    await page.keyboard.press("Escape");
    expect(await (await cell(ids.billing as string, "Name")).textContent()).toBe("Billing");
    // Typing on a focused cell starts editing with what was typed, as in a spreadsheet.
    await page.keyboard.type("Billing engine");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await element(ids.billing as string)).name).toBe("Billing engine");
    await expect.poll(async () => (await cell(ids.billing as string, "Name")).textContent()).toBe("Billing engine");
    // The focus went one row down (CRM): Tab moves right to the documentation, which Enter then edits.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Customer records");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await element(ids.crm as string)).documentation).toBe("Customer records");
    expect(await activityCount()).toBe(before + 2);
  });

  test("a property set on many selected rows is one change group", async () => {
    const page = s.page;
    const before = await activityCount();
    await (await cell(ids.crm as string, "Type")).click();
    // Shift-click extends to Ledger (CRM, Portal, Ledger); Ctrl-click adds Customer.
    await (await cell(ids.ledger as string, "Type")).click({ modifiers: ["Shift"] });
    await (await cell(ids.customer as string, "Type")).click({ modifiers: ["ControlOrMeta"] });
    await page.getByText("4 selected").waitFor();
    expect(await grid().locator('[role=row][aria-selected="true"]').count()).toBe(4);
    const bar = page.getByRole("region", { name: "Selected rows" });
    await bar.getByLabel("Property").selectOption("Owner");
    await bar.getByRole("textbox", { name: "Value" }).fill("Team Blue");
    await bar.getByRole("button", { name: "Set on selected" }).click();
    await page.getByText("Set Owner on 4 elements.").waitFor();
    for (const key of ["crm", "portal", "ledger", "customer"])
      expect((await element(ids[key] as string)).properties).toEqual({ Owner: "Team Blue" });
    expect((await element(ids.billing as string)).properties).toEqual({});
    await expect.poll(async () => (await cell(ids.portal as string, "Owner")).textContent()).toBe("Team Blue");
    expect(await activityCount()).toBe(before + 1);
    await screenshot(page, "table-view-bulk");
  });

  test("a type change that would break a relationship is refused, naming it", async () => {
    const page = s.page;
    await (await cell(ids.customer as string, "Type")).click();
    const bar = page.getByRole("region", { name: "Selected rows" });
    await bar.getByLabel("New type").selectOption("ApplicationComponent");
    await bar.getByRole("button", { name: "Change type" }).click();
    await page.getByText(/would make relationship '.*' \(Assignment from ApplicationComponent 'Customer'/).waitFor();
    expect((await element(ids.customer as string)) as unknown as { type: string }).toMatchObject({
      type: "BusinessActor",
    });
  });

  test("a block copied from a spreadsheet is pasted at the focused cell as one change group", async () => {
    const page = s.page;
    const before = await activityCount();
    await (await cell(ids.crm as string, "Name")).click();
    // Three rows of name, documentation, icon pack (the system property, left empty) and Owner, with Excel's
    // quoting of a cell holding a tab.
    const block = 'CRM suite\tSales\t\tTeam Red\nPortal\t"Web\tfront"\t\tTeam Red\nLedger\tBooks\t\t\n';
    await grid().evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, block);
    await page.getByText("Pasted values into 3 elements.").waitFor();
    expect(await element(ids.crm as string)).toMatchObject({ name: "CRM suite", documentation: "Sales" });
    expect(await element(ids.portal as string)).toMatchObject({
      documentation: "Web\tfront",
      properties: { Owner: "Team Red" },
    });
    // An empty cell removes the value.
    expect((await element(ids.ledger as string)).properties).toEqual({});
    expect(await activityCount()).toBe(before + 1);

    // The Activity page shows each table action as one entry.
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Activity" }).click();
    const list = page.getByRole("list", { name: "Changes" });
    await list.locator(".history-entry", { hasText: "Pasted values into 3 elements" }).waitFor();
    expect(await list.locator(".history-entry", { hasText: "Set Owner on 4 elements" }).count()).toBe(1);
    expect(await list.locator(".history-entry", { hasText: "Pasted values into 3 elements" }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "table-view-activity");
  });

  test("filter, sort, a bulk delete and its undo in one step", async () => {
    const page = s.page;
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Table" }).click();
    await grid().waitFor();
    await page.getByRole("combobox", { name: "Type", exact: true }).selectOption("ApplicationComponent");
    expect(await grid().getAttribute("aria-rowcount")).toBe("5");
    await grid().getByRole("button", { name: "Name" }).click();
    await expect
      .poll(() => grid().getByRole("columnheader", { name: /Name/ }).getAttribute("aria-sort"))
      .toBe("ascending");
    const names = await grid().locator('[role=row][data-id] [aria-colindex="3"]').allTextContents();
    expect(names).toEqual(["Billing engine", "CRM suite", "Ledger", "Portal"]);
    await page.getByLabel("Filter").fill("team red");
    await expect.poll(() => grid().getAttribute("aria-rowcount")).toBe("3"); // CRM suite, Portal
    await page.getByRole("checkbox", { name: "Select all shown rows" }).check();
    await page.getByText("2 selected").waitFor();
    await page.getByRole("region", { name: "Selected rows" }).getByRole("button", { name: "Delete selected" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("Deleted 2 elements.").waitFor();
    await expect.poll(() => grid().getAttribute("aria-rowcount")).toBe("1");
    await screenshot(page, "table-view-deleted");

    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Activity" }).click();
    const deletion = page
      .getByRole("list", { name: "Changes" })
      .locator(".history-entry", { hasText: "Deleted 2 elements" });
    await deletion.getByRole("button", { name: "Undelete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Undelete" }).click();
    await page.getByText(/^Undone: Deleted 2 elements/).waitFor();
    for (const key of ["crm", "portal"])
      expect((await s.page.request.get(`${server.base}/api/elements/${ids[key]}`)).status()).toBe(200);
  });
  test("the relationships tab: filtered by an end's name, a cell edited, a property set on many, a block pasted", async () => {
    const page = s.page;
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Table" }).click();
    await page.getByRole("tab", { name: "Relationships" }).click();
    gridName = "Relationships";
    await grid().waitFor();
    expect(await page.getByRole("tab", { name: "Relationships" }).getAttribute("aria-selected")).toBe("true");
    expect(await grid().getAttribute("aria-rowcount")).toBe("5"); // four relationships and the header row
    const headers = (await grid().getByRole("columnheader").allTextContents()).map((h) => h.trim());
    expect(headers.slice(1, 6)).toEqual(["Type", "Name", "Source", "Target", "Documentation"]);
    expect(headers).toContain("Owner");

    // The filter finds the ends' names: the two relationships touching Ledger.
    await page.getByLabel("Filter").fill("ledger");
    await expect.poll(() => grid().getAttribute("aria-rowcount")).toBe("3");
    expect(await (await cell(ids.flow as string, "Source")).textContent()).toBe("Billing engine");
    expect(await (await cell(ids.serves as string, "Target")).textContent()).toBe("Customer");

    // A cell edited in place: one change group.
    let before = await activityCount();
    await (await cell(ids.flow as string, "Name")).click();
    await page.keyboard.type("Invoices");
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await relationship(ids.flow as string)).name).toBe("Invoices");
    await expect.poll(async () => (await cell(ids.flow as string, "Name")).textContent()).toBe("Invoices");
    expect(await activityCount()).toBe(before + 1);
    // Source and target are read-only: Enter does not open an editor there.
    await (await cell(ids.flow as string, "Source")).click();
    await page.keyboard.press("Enter");
    expect(await grid().locator(".cell-editor").count()).toBe(0);
    expect(await (await cell(ids.flow as string, "Source")).getAttribute("aria-readonly")).toBe("true");

    // A property set on every shown row, as one change group.
    before = await activityCount();
    await page.getByRole("checkbox", { name: "Select all shown rows" }).check();
    await page.getByText("2 selected").waitFor();
    const bar = page.getByRole("region", { name: "Selected rows" });
    await bar.getByLabel("Property").selectOption("Owner");
    await bar.getByRole("textbox", { name: "Value" }).fill("Team Green");
    await bar.getByRole("button", { name: "Set on selected" }).click();
    await page.getByText("Set Owner on 2 relationships.").waitFor();
    for (const key of ["flow", "serves"])
      expect((await relationship(ids[key] as string)).properties).toEqual({ Owner: "Team Green" });
    expect((await relationship(ids.billingServes as string)).properties).toEqual({});
    await expect.poll(async () => (await cell(ids.serves as string, "Owner")).textContent()).toBe("Team Green");
    expect(await activityCount()).toBe(before + 1);

    // A block of name, source, target, documentation pasted at the first row's name: the ends are read-only and
    // left out, said so; the rest is one change group.
    before = await activityCount();
    await page.getByRole("button", { name: "Clear selection" }).click();
    await (await cell(ids.flow as string, "Name")).click();
    await grid().evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, "Payments\tBilling\tLedger\tMoney moves\nSupport\tLedger\tCustomer\tHelp desk\n");
    await page.getByText("Pasted values into 2 relationships.").waitFor();
    await page.getByText("Not pasted: Source, Target (read-only).").waitFor();
    expect(await relationship(ids.flow as string)).toMatchObject({ name: "Payments", documentation: "Money moves" });
    expect(await relationship(ids.serves as string)).toMatchObject({ name: "Support", documentation: "Help desk" });
    expect(await activityCount()).toBe(before + 1);
    await expect.poll(async () => (await cell(ids.serves as string, "Documentation")).textContent()).toBe("Help desk");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "table-view-relationships");

    // A phone's width: the toolbar and bulk bar wrap, the grid scrolls sideways, still axe-clean.
    await page.setViewportSize({ width: 390, height: 800 });
    await (await cell(ids.serves as string, "Name")).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "table-view-relationships-390");
    await page.getByRole("tab", { name: "Elements" }).click();
    gridName = "Elements";
    await grid().waitFor();
    await screenshot(page, "table-view-390");
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
