import type { Browser } from "playwright-core";
import { signIn } from "../apps/web/test/support/browser.ts";
import { verdict } from "./lib.ts";

const LAYERS = ["Business", "Application", "Technology", "Motivation", "Strategy", "Implementation"];

/** A result of `nodes` elements and `relationships` relationships in the shape POST /api/explore answers. */
function generatedResult(nodes: number, relationships: number) {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const ns = Array.from({ length: nodes }, (_, i) => ({
    id: `4:n:${i}`,
    labels: ["Element", "ApplicationComponent"],
    properties: { id: `e-${i}`, name: `Element ${i}`, type: "ApplicationComponent", layer: LAYERS[i % LAYERS.length] },
  }));
  const rs = Array.from({ length: relationships }, (_, i) => ({
    id: `5:r:${i}`,
    type: "SERVING",
    start: `4:n:${Math.floor(rand() * nodes)}`,
    end: `4:n:${Math.floor(rand() * nodes)}`,
    properties: { id: `r-${i}` },
  }));
  return {
    columns: ["r"],
    rows: rs.map((r) => [r]),
    nodes: ns,
    relationships: rs,
    truncated: false,
    rowCap: 10_000,
  };
}

/**
 * Drawing an explore result of 1,000 nodes and 2,000 relationships: from "Run query" to the picture drawn and a
 * node click answered by its inspector. The server's answer is replaced by a generated one of that size (the
 * demo model has 35 elements); what is measured is the browser's part: parse, layout, SVG, first interaction.
 */
export async function benchExploreDrawing(browser: Browser, base: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, base, "archi", "archi-dev-password");
  const body = JSON.stringify(generatedResult(1000, 2000));
  await page.route("**/api/explore", (route) => route.fulfill({ status: 200, contentType: "application/json", body }));
  await page.goto(`${base}/explore`);
  await page.getByRole("combobox", { name: "Cypher query" }).fill("MATCH ()-[r]->() RETURN r");
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    await page.evaluate(() => {
      (window as unknown as { __t0: number }).__t0 = performance.now();
    });
    await page.getByRole("button", { name: "Run query" }).click();
    await page.locator("svg.graph-svg g[data-node]").nth(999).waitFor();
    // In a picture this dense the nodes overlap; the click goes to the node itself, as a keyboard Enter would.
    await page
      .locator("svg.graph-svg g[data-node]")
      .nth(run * 10)
      .dispatchEvent("click");
    await page
      .getByRole("complementary", { name: "Selected node" })
      .getByText(`Element ${run * 10}`)
      .first()
      .waitFor();
    times.push(await page.evaluate(() => performance.now() - (window as unknown as { __t0: number }).__t0));
  }
  const best = Math.min(...times);
  verdict(
    "explore picture, 1,000 nodes + 2,000 relationships",
    `explore result of 1,000 nodes and 2,000 relationships drawn and a node inspected: ${times
      .map((t) => t.toFixed(0))
      .join(", ")} ms `.padEnd(80) + "target: <= 1000 ms",
    best <= 1000,
  );
  await context.close();
}
