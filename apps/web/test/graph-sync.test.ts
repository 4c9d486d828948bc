import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../../packages/graph/test/support/neo4j.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * Issue 26's first open, in real Chromium against `./pnpm start`'s standalone shape with Neo4j: right after the start
 * every provisioned dashboard shows its panels' results (no refusal, no instruction to call an API, the graph was
 * never rebuilt by hand), and an element renamed is found under its new name in explore without any rebuild.
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

/** Every panel of the page has left its loading state. */
async function panelsSettled(page: Page) {
  await page.waitForFunction(
    () => {
      const panels = [...document.querySelectorAll("[data-panel]")];
      return panels.length > 0 && panels.every((p) => !p.querySelector("[aria-busy=true]"));
    },
    undefined,
    { timeout: 90_000 },
  );
}

test("right after the start, each provisioned dashboard shows results; a rename reaches explore by itself", async () => {
  const { context, page } = await signedIn(browser, server.base, "archi");
  const dashboards = (await (await page.request.get(`${server.base}/api/dashboards`)).json()) as {
    dashboardId: string;
    title: string;
    isProvisioned: boolean;
  }[];
  const provisioned = dashboards.filter((d) => d.isProvisioned);
  expect(provisioned.map((d) => d.title).sort()).toEqual([
    "Application landscape",
    "Model statistics by layer",
    "Neighbourhood of an element",
  ]);
  const elements = (await (await page.request.get(`${server.base}/api/elements?type=ApplicationComponent`)).json()) as {
    id: string;
    name: string;
  }[];
  const subject = elements[0]!;

  for (const d of provisioned) {
    await page.goto(`${server.base}/dashboards/${d.dashboardId}`);
    await page.getByRole("heading", { name: d.title, level: 1 }).waitFor();
    const missing = page.locator("[data-missing]");
    if (await missing.isVisible()) {
      // A required parameter: the page asks for it instead of running panels that would be refused.
      expect(await missing.textContent()).toMatch(/Give Element above and choose Apply/);
      expect(await page.locator("[data-panel]").count()).toBe(0);
      await page.getByLabel(/Element/).fill(subject.id);
      await page.getByRole("button", { name: "Apply" }).click();
    }
    await panelsSettled(page);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toMatch(/Too many graph queries|api\/export|has not been built/i);
    expect(await page.locator("[data-panel] [role=alert]").count(), `${d.title}: ${text}`).toBe(0);
    expect(await seriousViolations(page), d.title).toEqual([]);
    await screenshot(page, `dashboard-first-open-${d.dashboardId}`);
  }

  // A rename, then explore: the new name is in the graph within the page's catch-up (no rebuild asked).
  const renamed = `${subject.name} (renamed)`;
  const put = await page.request.put(`${server.base}/api/elements/${subject.id}`, {
    data: { name: renamed },
    headers: { origin: server.base },
  });
  expect(put.status(), await put.text()).toBe(200);
  await page.goto(`${server.base}/explore`);
  const editor = page.getByRole("combobox", { name: "Cypher query" });
  await editor.fill(`MATCH (n:Element) WHERE n.name = '${renamed.replaceAll("'", "\\'")}' RETURN n.name AS name`);
  await page.getByRole("button", { name: "Run query" }).click();
  await page.getByRole("table", { name: "Result rows" }).getByText(renamed).waitFor({ timeout: 10_000 });
  expect(await seriousViolations(page), "explore after rename").toEqual([]);
  await screenshot(page, "explore-after-rename");
  await context.close();
}, 300_000);
