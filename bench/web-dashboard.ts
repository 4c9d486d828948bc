import { readFileSync } from "node:fs";
import { generateModel, serializeExchange } from "@ams/model";
import { launchChromium, signIn } from "../apps/web/test/support/browser.ts";
import { startServer } from "../apps/web/test/support/server.ts";
import { startTestNeo4j } from "../packages/graph/test/support/neo4j.ts";
import { report, verdict } from "./lib.ts";

type Panel = { panelInstanceId: string; layout: unknown };

/**
 * A dashboard of six panels (three metrics, two tables and a graph, from the provisioned application landscape plus
 * the element count) on the graph of a 100k-element model: from opening the dashboard page to every panel drawn.
 * Floor: the same six panel queries run by the browser with fetch, nothing drawn.
 */
export async function benchWebDashboard() {
  const neo4j = await startTestNeo4j();
  const server = await startServer({
    NEO4J_URL: neo4j.url,
    NEO4J_USER: neo4j.user,
    NEO4J_PASSWORD: neo4j.password,
    UPLOAD_LIMIT_MB: "300",
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await signIn(page, server.base, "archi", "archi-dev-password");
    // Cookie-authenticated writes carry the page's Origin, as the browser's own would.
    const origin = { origin: server.base };
    const xml = serializeExchange(generateModel({ elements: 100_000, relationships: 100_000, views: 1, seed: 11 }));
    const created = await page.request.post(`${server.base}/api/workspaces`, {
      multipart: { name: "Bench 100k", file: { name: "m.xml", mimeType: "application/xml", buffer: Buffer.from(xml) } },
      headers: origin,
      timeout: 600_000,
    });
    if (created.status() !== 201) throw new Error(`import: ${created.status()} ${await created.text()}`);
    const ws = ((await created.json()) as { id: string }).id;
    let job = (await (
      await page.request.post(`${server.base}/api/export/neo4j`, { headers: origin, timeout: 600_000 })
    ).json()) as {
      id: string;
      state: string;
    };
    while (job.state !== "succeeded") {
      if (job.state === "failed") throw new Error(`rebuild failed: ${JSON.stringify(job)}`);
      await new Promise((r) => setTimeout(r, 1000));
      job = (await (await page.request.get(`${server.base}/api/export/neo4j/jobs/${job.id}`)).json()) as typeof job;
    }
    const landscape = JSON.parse(
      readFileSync(new URL("../services/tenant/dashboards/application-landscape.json", import.meta.url), "utf8"),
    ) as { panels: Panel[] };
    const panels = [
      ...landscape.panels,
      {
        panelInstanceId: "elements",
        title: "Elements",
        visualization: "core/metric",
        query: "MATCH (e:Element) RETURN count(e) AS elements",
        bindings: {},
        layout: { x: 0, y: 10, w: 4, h: 2 },
      },
    ];
    const made = await page.request.post(`${server.base}/api/dashboards`, {
      data: { title: "Bench landscape", description: "six panels", parameters: [], panels },
      headers: origin,
    });
    if (made.status() !== 201) throw new Error(`dashboard: ${made.status()} ${await made.text()}`);
    const dashboardId = ((await made.json()) as { dashboardId: string }).dashboardId;
    await page.goto(`${server.base}/workspaces/${ws}`);
    await page.locator(".tree-scroll").waitFor();

    const drawn: number[] = [];
    const floor: number[] = [];
    const refusals: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${server.base}/`);
      await page.waitForLoadState("networkidle");
      const t0 = Date.now();
      await page.goto(`${server.base}/dashboards/${dashboardId}`);
      await page.waitForFunction(
        (n) => {
          const sections = [...document.querySelectorAll("[data-panel]")];
          return sections.length === n && sections.every((s) => !s.querySelector("[aria-busy='true']"));
        },
        panels.length,
        { timeout: 120_000, polling: "raf" },
      );
      drawn.push(Date.now() - t0);
      // A panel that answered with an error (a refusal: 429, or any other) counts as not drawn.
      refusals.push(...(await page.locator("[data-panel] [role='alert']").allTextContents()));
      floor.push(
        await page.evaluate(
          async ({ id, ids }) => {
            const t = performance.now();
            await Promise.all(ids.map((p) => fetch(`/api/dashboards/${id}/panels/${p}`).then((r) => r.json())));
            return performance.now() - t;
          },
          { id: dashboardId, ids: panels.map((p) => p.panelInstanceId) },
        ),
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    report(
      "6-panel dashboard on a 100k-element graph, drawn (median of 3)",
      median(drawn),
      median(floor),
      "<= 2000 ms",
      median(drawn) <= 2000,
    );
    verdict(
      "no panel refused",
      refusals.length === 0
        ? `every panel drew its result in all 3 openings (no refusal, no error)`
        : `${refusals.length} panel errors in 3 openings: ${[...new Set(refusals)].join("; ")}`,
      refusals.length === 0,
    );
  } finally {
    await browser.close();
    await server.stop();
    await neo4j.stop();
  }
}
