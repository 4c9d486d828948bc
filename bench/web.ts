import { generateModel, serializeExchange } from "@ams/model";
import type { Page } from "playwright-core";
import { launchChromium, signIn } from "../apps/web/test/support/browser.ts";
import { startServer } from "../apps/web/test/support/server.ts";
import { report, section, verdict } from "./lib.ts";
import { benchExploreDrawing } from "./web-explore.ts";

/**
 * The browser UI in headless Chromium against the real server (as `./pnpm start` runs it): what the modeler route
 * transfers, how fast a 200-node view opens (beside the server's SVG of the same view shown as an image), how
 * smoothly a node drags on a 500-node view, and how a 10k-element model tree scrolls.
 */

async function upload(page: Page, base: string, name: string, xml: string): Promise<string> {
  const res = await page.request.post(`${base}/api/workspaces`, {
    multipart: { name, file: { name: "model.xml", mimeType: "application/xml", buffer: Buffer.from(xml) } },
  });
  if (res.status() !== 201) throw new Error(`upload of ${name}: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** requestAnimationFrame intervals while `work` runs: what a person sees as smooth or janky. */
async function frames(page: Page, work: () => Promise<void>): Promise<{ fps: number; worst: number; count: number }> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__frames = [];
    w.__stop = false;
    const tick = (t: number) => {
      w.__frames.push(t);
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await work();
  const times = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stop: boolean };
    w.__stop = true;
    return w.__frames;
  });
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  const span = times[times.length - 1]! - times[0]!;
  return { fps: ((times.length - 1) * 1000) / span, worst: Math.max(...gaps), count: gaps.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchWeb() {
  section("Browser UI (headless Chromium, real server)");
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const setup = await browser.newPage();
    await signIn(setup, server.base, "archi", "archi-dev-password");
    const big = await upload(
      setup,
      server.base,
      "Bench 10k",
      serializeExchange(
        generateModel({ elements: 10_000, relationships: 12_000, views: 2, nodesPerView: 200, seed: 3 }),
      ),
    );
    const wide = await upload(
      setup,
      server.base,
      "Bench 500-node view",
      serializeExchange(generateModel({ elements: 700, views: 1, nodesPerView: 500, seed: 5 })),
    );

    // First load of the modeler route: every script the page fetches, as transferred (gzip).
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    const page = await context.newPage();
    await signIn(page, server.base, "archi", "archi-dev-password");
    const sizes: Promise<number>[] = [];
    page.on("requestfinished", (req) => {
      // Bytes on the wire: the Content-Length of the (gzip-encoded) answer.
      if (req.resourceType() === "script")
        sizes.push(req.response().then((r) => Number(r?.headers()["content-length"] ?? Number.NaN)));
    });
    await page.goto(`${server.base}/workspaces/${big}`);
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    await page.waitForLoadState("networkidle");
    const scriptBytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    verdict(
      "modeler first-load JavaScript",
      `modeler first-load JavaScript ${(scriptBytes / 1024).toFixed(1)} KB transferred (gzip)`.padEnd(80) +
        "target: <= 200 KB",
      scriptBytes <= 200 * 1024,
    );

    // Opening a 200-node view: from the click in the views list to every node drawn and the next frame painted.
    const views = (await (await page.request.get(`${server.base}/api/views`)).json()) as { id: string; name: string }[];
    await page.getByRole("tab", { name: /Views/ }).click();
    const open: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 8; i++) {
      const view = views[(i + 1) % views.length]!;
      open.push(
        await page.evaluate(async (name) => {
          const button = [...document.querySelectorAll<HTMLButtonElement>(".view-item")].find(
            (b) => b.querySelector(".tree-name")?.textContent === name,
          )!;
          const t0 = performance.now();
          button.click();
          for (;;) {
            await new Promise((r) => requestAnimationFrame(r));
            const svg = document.querySelector("svg.canvas");
            if (
              svg?.getAttribute("aria-label")?.includes(name) &&
              svg.querySelectorAll("g[data-node-id]").length >= 200
            )
              break;
          }
          await new Promise((r) => requestAnimationFrame(r));
          return performance.now() - t0;
        }, view.name),
      );
      floor.push(
        await page.evaluate(async (id) => {
          const t0 = performance.now();
          const res = await fetch(`/api/views/${encodeURIComponent(id)}/image?format=svg`, { cache: "no-store" });
          const img = new Image();
          img.src = URL.createObjectURL(await res.blob());
          await img.decode();
          document.body.append(img);
          await new Promise((r) => requestAnimationFrame(r));
          img.remove();
          return performance.now() - t0;
        }, view.id),
      );
    }
    report(
      "open a 200-node view to interactive (median)",
      median(open),
      median(floor),
      "<= 300 ms",
      median(open) <= 300,
    );

    // Dragging one node on a 500-node view.
    await page.goto(`${server.base}/workspaces/${wide}`);
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    const node = page.locator("svg.canvas g[data-node-id]").nth(250);
    const box = (await node.boundingBox())!;
    const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    const drag = await frames(page, async () => {
      for (let i = 1; i <= 90; i++) await page.mouse.move(from.x + i * 3, from.y + Math.sin(i / 8) * 40);
    });
    await page.mouse.up();
    verdict(
      "drag on a 500-node view",
      `drag a node on a 500-node view: ${drag.fps.toFixed(1)} frames/s, worst frame ${drag.worst.toFixed(1)} ms (${drag.count} frames)`.padEnd(
        80,
      ) + "target: >= 50 fps",
      drag.fps >= 50,
    );

    // Scrolling the model tree of 10k elements.
    await page.goto(`${server.base}/workspaces/${big}`);
    await page.locator(".tree-scroll").waitFor();
    const rows = Number(await page.locator(".tree-scroll").getAttribute("data-rows"));
    const scroll = await frames(page, () =>
      page.evaluate(async () => {
        const el = document.querySelector(".tree-scroll")!;
        for (let i = 0; i < 150; i++) {
          el.scrollTop += 400;
          await new Promise((r) => requestAnimationFrame(r));
        }
      }),
    );
    verdict(
      "model tree scroll, 10k elements",
      `scroll the model tree (${rows} rows): worst frame ${scroll.worst.toFixed(1)} ms over ${scroll.count} frames`.padEnd(
        80,
      ) + "target: no frame > 50 ms",
      scroll.worst <= 50,
    );
    await context.close();
    await benchExploreDrawing(browser, server.base);
  } finally {
    await browser.close();
    await server.stop();
  }
}
