import { randomUUID } from "node:crypto";
import { sql } from "@ams/db";
import { createTestDatabase } from "@ams/db/testing";
import {
  bulkEdit,
  createPropertyDefinition,
  createWorkspace,
  generateModel,
  importModel,
  type RequestContext,
  recordChange,
  SYSTEM_ACTOR,
  serializeExchange,
} from "@ams/model";
import type { Page } from "playwright-core";
import { launchChromium, signIn } from "../apps/web/test/support/browser.ts";
import { startServer } from "../apps/web/test/support/server.ts";
import { measure, report, section } from "./lib.ts";

/**
 * Issue 27's table view targets, each beside a floor measured in the same run:
 * - 100k rows scrolled in Chromium: the worst requestAnimationFrame gap during a programmatic scroll of the table vs
 *   the same scroll of an empty page of the same height;
 * - a bulk edit of 1,000 rows (one property set, one change group through bulkEdit) vs the same UPDATE in plain SQL
 *   (in a change group too, so both pay the change log's capture).
 */
export async function benchTable() {
  section("Table view (issue 27)");
  await bulk();
  await scrolling();
}

/** A TableData of `n` rows shaped as GET /api/workspaces/:id/table answers (the browser's part is measured). */
function generatedTable(n: number) {
  const types = ["ApplicationComponent", "ApplicationService", "Node", "BusinessProcess", "DataObject"];
  const owners: number[] = [];
  const ownerValues: string[] = [];
  for (let i = 0; i < n; i += 3) {
    owners.push(i);
    ownerValues.push(`Team ${i % 17}`);
  }
  return {
    kind: "elements",
    revision: 1,
    count: n,
    types,
    id: Array.from({ length: n }, (_, i) => `id-${i}`),
    type: Array.from({ length: n }, (_, i) => i % types.length),
    name: Array.from({ length: n }, (_, i) => `Element ${i}`),
    documentation: Array.from({ length: n }, (_, i) => (i % 4 === 0 ? `Documentation of element ${i}` : null)),
    row_revision: Array.from({ length: n }, () => 1),
    properties: [
      { id: "owner", name: "Owner", type: "string", allowed_values: null, rows: owners, values: ownerValues },
    ],
  };
}

/** rAF gaps while the element scrolls `steps` times by `by` pixels, one step per frame. */
async function scrollFrames(page: Page, selector: string, steps: number, by: number) {
  return page.evaluate(
    async ({ selector, steps, by }) => {
      const el = document.querySelector(selector) as HTMLElement;
      el.scrollTop = 0;
      await new Promise((r) => requestAnimationFrame(r));
      const times: number[] = [];
      for (let i = 0; i < steps; i++) {
        el.scrollTop += by;
        times.push(await new Promise<number>((r) => requestAnimationFrame(r)));
      }
      const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
      return { worst: Math.max(...gaps), mean: gaps.reduce((a, b) => a + b, 0) / gaps.length };
    },
    { selector, steps, by },
  );
}

async function scrolling() {
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signIn(page, server.base, "archi", "archi-dev-password");
    const res = await page.request.post(`${server.base}/api/workspaces`, {
      headers: { origin: server.base },
      data: { name: "Bench table" },
    });
    const ws = ((await res.json()) as { id: string }).id;
    const rows = 100_000;
    const body = JSON.stringify(generatedTable(rows));
    await page.route("**/api/workspaces/*/table*", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body }),
    );
    const t0 = Date.now();
    await page.goto(`${server.base}/workspaces/${ws}/table`);
    await page.locator(`[role=grid][aria-rowcount="${rows + 1}"]`).waitFor({ timeout: 60_000 });
    const shown = Date.now() - t0;
    const height = await page.locator(".table-scroll").evaluate((el) => el.scrollHeight);
    const clientHeight = await page.locator(".table-scroll").evaluate((el) => el.clientHeight);
    // 300 frames of 2,000 px: 20 screens a second, a fast wheel; then the same in the empty page.
    const grid = await scrollFrames(page, ".table-scroll", 300, 2000);
    const drawn = await page.locator("[role=row][data-id]").count();
    const empty = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await empty.setContent(
      `<div id="s" style="height:${clientHeight}px;overflow:auto"><div style="height:${height}px"></div></div>`,
    );
    const floor = await scrollFrames(empty, "#s", 300, 2000);
    report(
      `table view, ${rows.toLocaleString("en")} rows: worst frame scrolling (${drawn} rows in DOM)`,
      grid.worst,
      floor.worst,
      "<= 50 ms",
      grid.worst <= 50,
    );
    report(
      `table view, ${rows.toLocaleString("en")} rows: mean frame scrolling`,
      grid.mean,
      floor.mean,
      "report",
      true,
    );
    report(`table view, ${rows.toLocaleString("en")} rows: page opened to grid drawn`, shown, null, "report", true);
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function bulk() {
  const database = await createTestDatabase("ams_bench_table");
  try {
    const orgId = randomUUID();
    await database.rows(sql`insert into organizations (id, slug, name) values (${orgId}, ${`b-${orgId}`}, 'Bench')`);
    const base: RequestContext = {
      database,
      userId: "bench",
      username: "bench",
      organizationId: orgId,
      workspaceId: null,
      role: "owner",
      platformAdmin: false,
    };
    const ws = await createWorkspace({ ctx: base, input: { name: "Bench table" } });
    const ctx = { ...base, workspaceId: ws.id };
    const model = generateModel({ elements: 10_000, relationships: 10_000, views: 0, nodesPerView: 0, seed: 5 });
    await importModel({ ctx, input: { xml: serializeExchange(model) } });
    const def = await createPropertyDefinition({ ctx, input: { name: "Owner" } });
    const ids = (
      await database.rows<{ id: string }>(
        sql`select id from elements where workspace_id = ${ws.id} order by ord limit 1000`,
      )
    ).map((r) => r.id);
    let n = 0;
    const verb = await measure(() => bulkEdit({ ctx, input: { ids, set: { properties: { Owner: `Team ${++n}` } } } }), {
      iterations: 9,
      warmup: 2,
    });
    const plain = await measure(
      () =>
        database.db.transaction((tx) =>
          recordChange(database, tx, ws.id, SYSTEM_ACTOR, "plain", (tx) =>
            database.rows(
              sql`update property_values set value = ${`Plain ${++n}`}
                  where workspace_id = ${ws.id} and owner_kind = 'element' and definition_id = ${def.id}
                    and owner_id = any(array(select json_array_elements_text(${JSON.stringify(ids)}::json)))`,
              tx,
            ),
          ),
        ),
      { iterations: 9, warmup: 2 },
    );
    report(
      "bulk edit: set a property on 1,000 of 10k elements (bulkEdit)",
      verb.median,
      plain.median,
      "<= 1000 ms",
      verb.median <= 1000,
    );
  } finally {
    await database.drop();
  }
}
