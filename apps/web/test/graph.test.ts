import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../../packages/graph/test/support/neo4j.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * The graph in real Chromium against the real server and the shared local Neo4j of the graph tests: a rebuild
 * followed to "done" on screen, an explore query drawn as a picture, a node inspected and opened in the modeler,
 * completion in the editor, and a write query refused with the reason.
 */

let server: RunningServer;
let browser: Browser;
let neo4j: TestNeo4j;

beforeAll(async () => {
  neo4j = await startTestNeo4j();
  [server, browser] = await Promise.all([
    startServer({ NEO4J_URL: neo4j.url, NEO4J_USER: neo4j.user, NEO4J_PASSWORD: neo4j.password }),
    launchChromium(),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await neo4j?.stop();
});

describe("graph explore", () => {
  test("rebuild runs to done on screen; a query draws a picture; a node opens in the modeler; CREATE is refused", async () => {
    const { context, page } = await signedIn(browser, server.base, "archi");
    await page.getByRole("link", { name: "Car insurance claims" }).waitFor();
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Explore" }).click();
    await page.getByRole("heading", { name: "Explore Car insurance claims" }).waitFor();
    expect(await seriousViolations(page), "explore page").toEqual([]);

    await page.getByRole("button", { name: "Rebuild graph" }).click();
    await page.getByRole("status").filter({ hasText: /^Done/ }).waitFor({ timeout: 90_000 });

    const editor = page.getByRole("combobox", { name: "Cypher query" });
    await editor.fill("");
    await editor.pressSequentially("MATCH (a:Busin");
    await page
      .getByRole("listbox", { name: "Suggestions" })
      .getByRole("option", { name: /BusinessActor/ })
      .waitFor();
    await editor.press("Escape");

    await editor.fill("MATCH p = (a:Element)-[r]->(b:Element) RETURN p LIMIT 60");
    await page.getByRole("button", { name: "Run query" }).click();
    const picture = page.locator("svg.graph-svg");
    await picture.locator("g[data-node]").first().waitFor();
    expect(await picture.locator("g[data-node]").count()).toBeGreaterThan(5);
    expect(await picture.locator("g[data-relationship]").count()).toBeGreaterThan(3);
    // The click goes to the node itself: the force layout may let a neighbour overlap the first node and take a
    // pointer click meant for it.
    const inspectFirstNode = () => picture.locator("g[data-node]").first().dispatchEvent("click");
    await inspectFirstNode();
    const inspector = page.getByRole("complementary", { name: "Selected node" });
    await inspector.getByRole("link", { name: "Open in modeler" }).waitFor();
    expect(await seriousViolations(page), "explore result").toEqual([]);
    await screenshot(page, "explore-graph");
    await page.getByRole("tab", { name: "Table" }).click();
    await page.getByRole("table", { name: "Result rows" }).waitFor();
    await screenshot(page, "explore-table");
    await page.getByRole("tab", { name: "Graph" }).click();
    await inspectFirstNode();
    const name = (await page.getByRole("complementary", { name: "Selected node" }).locator("h3").textContent()) ?? "";

    await editor.fill("CREATE (n:Element {name: 'x'}) RETURN n");
    await page.getByRole("button", { name: "Run query" }).click();
    const refused = page.getByRole("alert").filter({ hasText: "The query was refused" });
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/CREATE/);
    await screenshot(page, "explore-refused");

    // History keeps both queries, newest first, across a reload.
    await page.reload();
    const history = page.getByRole("list", { name: "Query history" });
    await history.getByRole("button").first().waitFor();
    expect(await history.getByRole("button").first().textContent()).toContain("CREATE");

    await page
      .getByRole("button", { name: /MATCH p = / })
      .first()
      .click();
    await page.getByRole("button", { name: "Run query" }).click();
    await picture.locator("g[data-node]").first().waitFor();
    const node = picture
      .locator("g[data-node]")
      .filter({ hasText: name.replace("…", "") })
      .first();
    await node.dispatchEvent("click"); // on the node itself, as above: a neighbour may overlap it
    await page
      .getByRole("complementary", { name: "Selected node" })
      .getByRole("link", { name: "Open in modeler" })
      .click();
    await page.waitForURL(/\/workspaces\/[^?]+\?element=/);
    await page.locator("#el-name").waitFor();
    await context.close();
  });

  test("a viewer explores but has no rebuild button", async () => {
    const { context, page } = await signedIn(browser, server.base, "user");
    // Through the app's navigation, as a viewer finds the page, once the home page has loaded their workspace.
    await page.getByRole("link", { name: "Car insurance claims" }).waitFor();
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Explore" }).click();
    await page.getByRole("heading", { name: "Explore Car insurance claims" }).waitFor();
    await screenshot(page, "explore-viewer");
    await page.getByRole("button", { name: "Run query" }).waitFor();
    expect(await page.getByRole("button", { name: "Rebuild graph" }).count()).toBe(0);
    await context.close();
  });
});

describe("dashboards", () => {
  test("a dashboard is created, drawn, edited (revision 2), restored to revision 1 and deleted", async () => {
    const { context, page } = await signedIn(browser, server.base, "archi");
    // The graph was rebuilt by the explore test above; rebuild again in case this test runs alone.
    const rebuilt = await page.request.post(`${server.base}/api/export/neo4j`, { headers: { origin: server.base } });
    expect([200, 202]).toContain(rebuilt.status());
    // The panels read the graph: wait until that rebuild has run (the count panel read 0 once when drawn while it
    // was still queued behind the explore test's rebuild).
    const job = ((await rebuilt.json()) as { job?: { id: string } }).job;
    if (job) {
      await expect
        .poll(
          async () =>
            (
              (await (await page.request.get(`${server.base}/api/export/neo4j/jobs/${job.id}`)).json()) as {
                status: string;
              }
            ).status,
          { timeout: 60_000, interval: 200 },
        )
        .toBe("succeeded");
    }
    await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Dashboards" }).click();
    const list = page.getByRole("table", { name: "Dashboards" });
    await list.getByText("provisioned").first().waitFor();
    expect(await seriousViolations(page), "dashboard list").toEqual([]);
    await screenshot(page, "dashboards-list");

    await page.getByRole("button", { name: "New dashboard" }).click();
    const json = page.getByLabel("Dashboard definition (JSON)");
    const template = JSON.parse(await json.inputValue()) as { title: string; panels: { visualization: string }[] };
    expect(await seriousViolations(page), "dashboard editor").toEqual([]);
    await screenshot(page, "dashboard-editor");
    await json.fill("{ not json");
    await page.getByRole("alert").filter({ hasText: "Not valid JSON" }).waitFor();
    await json.fill(JSON.stringify({ ...template, panels: [{ ...template.panels[0], visualization: "core/pie" }] }));
    await page.getByRole("button", { name: "Create dashboard" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: /panels\.0\.visualization/ })
      .waitFor();
    await json.fill(JSON.stringify({ ...template, title: "Claims overview" }, null, 2));
    await page.getByRole("button", { name: "Create dashboard" }).click();
    await page.getByRole("heading", { name: "Claims overview", level: 1 }).waitFor();
    const metric = page.locator("[data-panel=elements] [data-metric]");
    await metric.waitFor();
    expect(Number.parseInt((await metric.textContent()) ?? "", 10)).toBeGreaterThan(10);
    await page.locator("[data-panel=per-layer]").getByRole("table", { name: "Result rows" }).waitFor();
    await page.locator("[data-panel=serving] svg.graph-svg g[data-node]").first().waitFor();
    expect(await seriousViolations(page), "dashboard").toEqual([]);
    await screenshot(page, "dashboard-view");

    await page.getByRole("button", { name: "Edit" }).click();
    const edited = JSON.parse(await json.inputValue()) as Record<string, unknown>;
    await json.fill(JSON.stringify({ ...edited, title: "Claims overview, second take" }, null, 2));
    await page.getByRole("button", { name: "Save as a new revision" }).click();
    await page.getByText("Saved as revision 2.").waitFor();
    await page.getByRole("heading", { name: "Claims overview, second take", level: 1 }).waitFor();

    await page.getByLabel("Revision").selectOption("1");
    await page.getByText("You are looking at revision 1 of 2.").waitFor();
    await page.getByRole("heading", { name: "Claims overview", level: 1 }).waitFor();
    await screenshot(page, "dashboard-old-revision");
    await page.getByRole("button", { name: "Restore this revision" }).click();
    await page.getByText("Revision 1 restored as revision 3.").waitFor();
    await page.getByRole("heading", { name: "Claims overview", level: 1 }).waitFor();
    expect(await page.getByLabel("Revision").inputValue()).toBe("3");

    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete dashboard" }).getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(/\/dashboards$/);
    const row = list.locator('tr[data-dashboard="Claims overview"]');
    await row.getByText(/deleted/).waitFor();
    await row.getByRole("button", { name: "Restore Claims overview" }).click();
    await page.getByText("Dashboard 'Claims overview' restored.").waitFor();
    await row.getByRole("link", { name: "Claims overview" }).click();
    await page.getByRole("heading", { name: "Claims overview", level: 1 }).waitFor();
    expect(await page.getByLabel("Revision").inputValue()).toBe("3");
    await context.close();
  });
});
