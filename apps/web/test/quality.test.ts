import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import pixelmatch from "pixelmatch";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { corpusDir } from "../../../scripts/test-preflight.ts";
import { ARTIFACTS, launchChromium, screenshot, signIn } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";

/**
 * What a reviewer checks by eye, checked by machine: the canvas draws a real imported view exactly as the server's
 * SVG does, and the main screens have no serious or critical accessibility violation (axe-core in the page).
 */

let server: RunningServer;
let archisurance = "";
let browser: Browser;
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** axe-core run inside the page (evaluated through the devtools protocol, so the page's CSP stays as served). */
async function axe(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: AxeViolation[] }> } }).axe.run;
    return run({ resultTypes: ["violations"] });
  });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

const summary = (vs: AxeViolation[]) =>
  vs.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);

describe("accessibility", () => {
  test("sign-in page, workspace picker and modeler have no serious or critical violation", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.base}/login`);
    await page.getByLabel("Username").waitFor();
    expect(summary(await axe(page)), "sign-in page").toEqual([]);

    await signIn(page, server.base, "archi", "archi-dev-password");
    await page.getByRole("link", { name: "Car insurance claims" }).waitFor();
    expect(summary(await axe(page)), "workspace picker").toEqual([]);

    await page.getByRole("link", { name: "Car insurance claims" }).click();
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    expect(summary(await axe(page)), "modeler").toEqual([]);
    await page.getByRole("button", { name: "New element" }).click();
    expect(summary(await axe(page)), "new element dialog").toEqual([]);
    await context.close();
  });
});

describe("the canvas draws what the server renders", () => {
  test("ArchiSurance's Layered View: canvas at 100% against the server's SVG, pixel by pixel", async () => {
    const context = await browser.newContext({ viewport: { width: 2400, height: 1600 } });
    const page = await context.newPage();
    await signIn(page, server.base, "archi", "archi-dev-password");
    const created = await page.request.post(`${server.base}/api/workspaces`, {
      headers: { origin: server.base },
      multipart: {
        name: "ArchiSurance (Archi export)",
        file: {
          name: "archisurance.xml",
          mimeType: "application/xml",
          buffer: readFileSync(`${corpusDir}/models/archi-tests/archisurance_archi-export.xml`),
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const ws = (await created.json()) as { id: string };
    archisurance = ws.id;
    const views = (await (await page.request.get(`${server.base}/api/views`)).json()) as { id: string; name: string }[];
    const layered = views.find((v) => v.name === "Layered View")!;
    await page.goto(`${server.base}/workspaces/${ws.id}?view=${layered.id}`);
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    await page.getByRole("button", { name: "100%", exact: true }).click();
    await page.waitForTimeout(200);
    await screenshot(page, "canvas-archisurance-layered");

    const svg = await (await page.request.get(`${server.base}/api/views/${layered.id}/image?format=svg`)).text();
    const [vx, vy, vw, vh] = /viewBox="([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)"/
      .exec(svg)!
      .slice(1)
      .map(Number) as number[];
    const box = (await page.locator("svg.canvas").boundingBox())!;
    const transform = (await page.locator("svg.canvas > g").first().getAttribute("transform"))!;
    const [px, py, zoom] = /translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)/
      .exec(transform)!
      .slice(1)
      .map(Number) as number[];
    expect(zoom).toBe(1);
    const clip = { x: box.x + px! + vx!, y: box.y + py! + vy!, width: vw!, height: vh! };
    expect(clip.x + clip.width).toBeLessThanOrEqual(box.x + box.width);
    expect(clip.y + clip.height).toBeLessThanOrEqual(box.y + box.height);
    const canvasPng = PNG.sync.read(await page.screenshot({ clip }));

    const reference = await context.newPage();
    await reference.setViewportSize({ width: vw!, height: vh! });
    await reference.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    const serverPng = PNG.sync.read(await reference.screenshot({ clip: { x: 0, y: 0, width: vw!, height: vh! } }));
    await screenshot(reference, "server-svg-archisurance-layered");

    const diff = new PNG({ width: vw!, height: vh! });
    mkdirSync(ARTIFACTS, { recursive: true });
    const differing = pixelmatch(canvasPng.data, serverPng.data, diff.data, vw!, vh!, { threshold: 0.1 });
    const ratio = differing / (vw! * vh!);
    writeFileSync(`${ARTIFACTS}canvas-vs-server-diff.png`, PNG.sync.write(diff));
    console.log(`canvas vs server SVG: ${differing} of ${vw! * vh!} pixels differ (${(ratio * 100).toFixed(3)}%)`);
    // Same renderer code, same browser and fonts, whole-pixel placement: anything above a fraction of a percent
    // means the canvas draws something the server does not (or misses something), not anti-aliasing noise.
    expect(ratio, `${differing} of ${vw! * vh!} pixels differ`).toBeLessThan(0.002);
    await context.close();
  });
});

describe("the imported organization tree", () => {
  test("the model tree groups ArchiSurance by its folders, and a folder collapses", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.base, "archi", "archi-dev-password");
    await page.goto(`${server.base}/workspaces/${archisurance}`);
    await page.locator(".tree-scroll").waitFor();
    const folders = (await (await page.request.get(`${server.base}/api/folders`)).json()) as {
      id: number;
      parent_id: number | null;
      label: string | null;
      ref_id: string | null;
    }[];
    const top = folders.filter((f) => f.parent_id === null && f.label && folders.some((c) => c.parent_id === f.id));
    expect(top.length).toBeGreaterThan(2);
    await page.getByLabel("Group the model by").selectOption("folder");
    const groups = page.locator(".tree-group");
    await expect.poll(() => groups.first().textContent()).toContain(top[0]!.label!);
    const rowsBefore = Number(await page.locator(".tree-scroll").getAttribute("data-rows"));
    await groups.first().click();
    await expect
      .poll(async () => Number(await page.locator(".tree-scroll").getAttribute("data-rows")))
      .toBeLessThan(rowsBefore);
    await screenshot(page, "model-tree-by-folder");
    await context.close();
  });
});
