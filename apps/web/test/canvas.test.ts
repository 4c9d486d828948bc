import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { corpusDir } from "../../../scripts/test-preflight.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot, signIn } from "./support/browser.ts";
import { canvasPoint, dragMouse } from "./support/canvas.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { PASSWORDS, signedIn } from "./support/users.ts";

/**
 * The canvas commands a person uses on a drawn view (rubber band, align and distribute, Ctrl+A, Escape, Delete, the
 * two deletes, zoom and Fit, SVG and PNG), import with its warnings and the export → import round trip through the
 * real buttons, and the modeler on a phone: each checked by what the screen shows and what the REST API then holds.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Node = { id: string; element_id: string | null; x: number; y: number; w: number; h: number; children: Node[] };
type ViewDetail = {
  id: string;
  name: string;
  viewpoint: string | null;
  nodes: Node[];
  connections: { id: string; relationship_id: string | null; source: string; target: string }[];
};
type Element = { id: string; type: string; name: string; documentation: string | null; properties?: unknown };
type Relationship = { id: string; type: string; source: string; target: string; name: string | null };
type Warning = { path: string; message: string };

const models = `${corpusDir}/models`;
/** Archi 5.0.2's export of the ArchiMate Overview (AOEFF): forbidden relationships, each imported with a warning. */
const WITH_FORBIDDEN_RELATIONSHIPS = `${models}/tool-exports/aoeff_3_1_archi_5_0_2.xml`;
/** A property referring to an undefined definition: the import creates the definition and warns. */
const WITH_UNDEFINED_PROPERTY = `${models}/tool-exports/aoeff_3_1.xml`;

async function rest<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(`${server.base}${path}`);
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

async function post<T>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(`${server.base}${path}`, { headers: { origin: server.base }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
  return (await res.json()) as T;
}

/** The warnings the server reports for a file, from an import of it into a throwaway workspace. */
async function warningsOf(page: Page, file: string): Promise<Warning[]> {
  const res = await page.request.post(`${server.base}/api/workspaces`, {
    headers: { origin: server.base },
    multipart: {
      name: `Warnings of ${file.split("/").pop()}`,
      file: { name: "model.xml", mimeType: "application/xml", buffer: readFileSync(file) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const created = (await res.json()) as { id: string; import: { warnings: Warning[] } };
  expect(
    (
      await page.request.delete(`${server.base}/api/workspaces/${created.id}`, { headers: { origin: server.base } })
    ).status(),
  ).toBe(204);
  return created.import.warnings;
}

const nodeOf = (name: string, page: Page) => page.locator(`svg.canvas g[data-node-id][data-label^="${name},"]`);

async function clickNode(page: Page, name: string) {
  const box = (await nodeOf(name, page).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const zoomLevel = async (page: Page) => Number((await page.locator(".zoom-level").textContent())!.replace("%", ""));
const outlines = (page: Page) => page.locator(".selection-outline").count();
/** A button of the view editor's toolbar (the properties panel has a "Delete from model" of its own). */
const tool = (page: Page, name: string) =>
  page.getByRole("toolbar", { name: "View editor" }).getByRole("button", { name, exact: true });

describe("canvas commands on a drawn view", () => {
  let context: BrowserContext;
  let page: Page;
  let viewId: string;
  const ids: Record<string, string> = {};
  /** The view's nodes by element name, as the server holds them. */
  const stored = async () => {
    const view = await rest<ViewDetail>(page, `/api/views/${viewId}`);
    const names = new Map(Object.entries(ids).map(([name, id]) => [id, name]));
    return new Map(view.nodes.map((n) => [names.get(n.element_id!)!, n]));
  };

  beforeAll(async () => {
    ({ context, page } = await signedIn(browser, server.base, "archi"));
    const ws = await post<{ id: string }>(page, "/api/workspaces", { name: "Canvas commands" });
    await page.request.post(`${server.base}/api/workspaces/${ws.id}/activate`, { headers: { origin: server.base } });
    for (const name of ["Front office", "Back office", "Archive", "Ledger"])
      ids[name] = (await post<{ id: string }>(page, "/api/elements", { name, type: "ApplicationComponent" })).id;
    await post(page, "/api/relationships", { type: "Flow", source: ids.Ledger, target: ids["Front office"] });
    viewId = (await post<{ id: string }>(page, "/api/views", { name: "Arrange me" })).id;
    const at: Record<string, [number, number]> = {
      "Front office": [100, 100],
      "Back office": [300, 180],
      Archive: [560, 140],
      Ledger: [100, 400],
    };
    const nodeIds: Record<string, string> = {};
    for (const [name, [x, y]] of Object.entries(at))
      nodeIds[name] = (
        await post<{ id: string }>(page, `/api/views/${viewId}/nodes`, { element_id: ids[name], x, y, w: 120, h: 55 })
      ).id;
    const rel = (await rest<Relationship[]>(page, "/api/relationships"))[0]!;
    await post(page, `/api/views/${viewId}/connections`, {
      source: nodeIds.Ledger,
      target: nodeIds["Front office"],
      relationship_id: rel.id,
    });
    await page.goto(`${server.base}/workspaces/${ws.id}?view=${viewId}`);
    await page.locator("svg.canvas g[data-node-id]").nth(3).waitFor();
  }, 60_000);
  afterAll(() => context?.close());

  test("a rubber band selects the nodes it encloses; align top and distribute horizontally move them", async () => {
    const canvas = (await page.locator("svg.canvas").boundingBox())!;
    // From the empty corner of the canvas to below-right of the three upper nodes; Ledger (y 400) stays outside.
    const end = await canvasPoint(page, 720, 260);
    await dragMouse(page, { x: canvas.x + 8, y: canvas.y + 8 }, end);
    expect(await outlines(page)).toBe(3);
    expect(await page.locator("#align-select").isEnabled()).toBe(true);
    await screenshot(page, "canvas-rubber-band");

    await page.locator("#align-select").selectOption("top");
    await expect
      .poll(async () => {
        const n = await stored();
        return ["Front office", "Back office", "Archive", "Ledger"].map((k) => n.get(k)!.y);
      })
      .toEqual([100, 100, 100, 400]);
    // On screen too: the three tops are level.
    const tops = await Promise.all(
      ["Front office", "Back office", "Archive"].map(async (k) => Math.round((await nodeOf(k, page).boundingBox())!.y)),
    );
    expect(new Set(tops).size).toBe(1);

    // Equal gaps between neighbours, the outer two staying: 100..680 holds 3×120, so the gaps are 110.
    await page.locator("#align-select").selectOption("distribute-horizontal");
    await expect
      .poll(async () => {
        const n = await stored();
        return ["Front office", "Back office", "Archive"].map((k) => n.get(k)!.x);
      })
      .toEqual([100, 330, 560]);
    expect(await outlines(page)).toBe(3);
    await screenshot(page, "canvas-aligned-distributed");
  }, 60_000);

  test("Escape clears the selection, Ctrl+A selects every node", async () => {
    await page.locator("svg.canvas").focus();
    await page.keyboard.press("Escape");
    expect(await outlines(page)).toBe(0);
    expect(await page.locator("#align-select").isDisabled()).toBe(true);
    await page.keyboard.press("Control+a");
    expect(await outlines(page)).toBe(4);
    expect(await tool(page, "Delete from view").isEnabled()).toBe(true);
    await page.keyboard.press("Escape");
    expect(await outlines(page)).toBe(0);
    expect(await tool(page, "Delete from view").isDisabled()).toBe(true);

    // Escape also leaves the Connect tool and a chosen palette type, back to Select.
    await tool(page, "Connect").click();
    expect(await tool(page, "Connect").getAttribute("aria-pressed")).toBe("true");
    await page.locator("svg.canvas").focus();
    await page.keyboard.press("Escape");
    expect(await tool(page, "Connect").getAttribute("aria-pressed")).toBe("false");
    expect(await tool(page, "Select").getAttribute("aria-pressed")).toBe("true");
    const paletteItem = page.locator('.palette button[data-type="ApplicationService"]');
    await paletteItem.click();
    expect(await paletteItem.getAttribute("aria-pressed")).toBe("true");
    await page.locator("svg.canvas").focus();
    await page.keyboard.press("Escape");
    expect(await paletteItem.getAttribute("aria-pressed")).toBe("false");
    // A click on the canvas now places nothing.
    const canvas = (await page.locator("svg.canvas").boundingBox())!;
    await page.mouse.click(canvas.x + canvas.width - 30, canvas.y + canvas.height - 30);
    expect((await rest<Element[]>(page, "/api/elements")).length).toBe(4);
  });

  test("the Delete key removes a node from the view only; Ctrl+Z puts it back", async () => {
    await clickNode(page, "Archive");
    expect(await outlines(page)).toBe(1);
    await page.keyboard.press("Delete");
    await expect.poll(async () => (await stored()).has("Archive")).toBe(false);
    // The server answers before the screen has redrawn: wait for the drawing as well.
    await expect.poll(() => nodeOf("Archive", page).count()).toBe(0);
    // The element is still in the model and in the tree.
    expect((await page.request.get(`${server.base}/api/elements/${ids.Archive}`)).status()).toBe(200);
    expect(await page.locator('[data-element-id]:has-text("Archive")').count()).toBe(1);
    await page.keyboard.press("Control+z");
    await expect.poll(async () => (await stored()).get("Archive")?.x).toBe(560);
    await nodeOf("Archive", page).waitFor();
  });

  test("Delete from model asks first, then removes the element and its relationships from the model", async () => {
    await clickNode(page, "Ledger");
    await tool(page, "Delete from model").click();
    const dialog = page.getByRole("dialog", { name: "Delete from model" });
    await dialog.getByText("Delete from the whole model:").waitFor();
    // It names what goes: the one element selected (its relationship goes with it, as the dialog says).
    expect(await dialog.getByRole("listitem").allTextContents()).toEqual(["Ledger (Application Component)"]);
    expect(await seriousViolations(page), "delete from model dialog").toEqual([]);
    await screenshot(page, "canvas-delete-from-model");
    // Cancel keeps everything.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect((await page.request.get(`${server.base}/api/elements/${ids.Ledger}`)).status()).toBe(200);

    await tool(page, "Delete from model").click();
    await dialog.getByRole("button", { name: "Delete from model" }).click();
    await expect
      .poll(async () => (await page.request.get(`${server.base}/api/elements/${ids.Ledger}`)).status())
      .toBe(404);
    expect(await rest<Relationship[]>(page, "/api/relationships")).toEqual([]);
    const view = await rest<ViewDetail>(page, `/api/views/${viewId}`);
    expect(view.nodes.map((n) => n.element_id).sort()).toEqual(
      [ids["Front office"], ids["Back office"], ids.Archive].sort(),
    );
    expect(view.connections).toEqual([]);
    await expect.poll(() => nodeOf("Ledger", page).count()).toBe(0);
    await expect.poll(() => page.locator('[data-element-id]:has-text("Ledger")').count()).toBe(0);
  });

  test("zoom in and out by the toolbar and the keys; Fit brings the whole view back on screen", async () => {
    await page.getByRole("button", { name: "Fit", exact: true }).click();
    const start = await zoomLevel(page);
    const width = async () => (await nodeOf("Back office", page).boundingBox())!.width;
    const w0 = await width();
    await page.getByRole("button", { name: "Zoom in" }).click();
    expect(await zoomLevel(page)).toBe(Math.round(start * 1.25));
    expect((await width()) / w0).toBeCloseTo(1.25, 2);
    await page.getByRole("button", { name: "Zoom out" }).click();
    expect(await zoomLevel(page)).toBe(start);
    expect((await width()) / w0).toBeCloseTo(1, 2);
    await page.locator("svg.canvas").focus();
    await page.keyboard.press("-");
    expect(await zoomLevel(page)).toBe(Math.round(start * 0.8));

    // Far in: the view no longer fits; Fit shows every node whole inside the canvas.
    for (let i = 0; i < 6; i++) await page.getByRole("button", { name: "Zoom in" }).click();
    expect(await zoomLevel(page)).toBeGreaterThan(250);
    const canvas = (await page.locator("svg.canvas").boundingBox())!;
    const inside = async () => {
      const boxes = await Promise.all(
        ["Front office", "Back office", "Archive"].map(async (k) => (await nodeOf(k, page).boundingBox())!),
      );
      return boxes.every(
        (b) =>
          b.x >= canvas.x &&
          b.y >= canvas.y &&
          b.x + b.width <= canvas.x + canvas.width &&
          b.y + b.height <= canvas.y + canvas.height,
      );
    };
    expect(await inside()).toBe(false);
    await page.getByRole("button", { name: "Fit", exact: true }).click();
    expect(await inside()).toBe(true);
    expect(await zoomLevel(page)).toBe(start);
    expect(await zoomLevel(page)).toBeLessThanOrEqual(100);
  });

  test("the view downloads as SVG (the server's picture) and as PNG (drawn in the browser at twice the size)", async () => {
    const [svgDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "SVG", exact: true }).click(),
    ]);
    expect(svgDownload.suggestedFilename()).toBe("Arrange me.svg");
    const svg = readFileSync((await svgDownload.path())!, "utf8");
    expect(svg).toMatch(/^(<\?xml[^>]*>\s*)?<svg[\s>]/);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    for (const name of ["Front office", "Back office", "Archive"]) expect(svg).toContain(name);
    expect(svg).not.toContain("Ledger");
    const rendered = await (await page.request.get(`${server.base}/api/views/${viewId}/image?format=svg`)).text();
    expect(svg).toBe(rendered);
    const [, w, h] = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg)!.map(Number) as number[];

    const [pngDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "PNG", exact: true }).click(),
    ]);
    expect(pngDownload.suggestedFilename()).toBe("Arrange me.png");
    const png = PNG.sync.read(readFileSync((await pngDownload.path())!));
    expect(png.width).toBe(Math.round(w! * 2));
    expect(png.height).toBe(Math.round(h! * 2));
    // Not a blank picture: the white background and the application layer's blue both appear.
    let white = 0;
    let coloured = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      const [r, g, b, a] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!, png.data[i + 3]!];
      if (a > 0 && r > 240 && g > 240 && b > 240) white++;
      else if (a > 0 && b > r + 20) coloured++;
    }
    expect(white).toBeGreaterThan(0);
    expect(coloured / (png.width * png.height)).toBeGreaterThan(0.05);
  });
});

describe("import and export through the modeler's own buttons", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedIn(browser, server.base, "archi"));
  });
  afterAll(() => context?.close());

  test("the Import dialog shows the upload's progress, then the server's warnings as a list", async () => {
    const expected = await warningsOf(page, WITH_FORBIDDEN_RELATIONSHIPS);
    expect(expected.length).toBeGreaterThan(0);
    const ws = await post<{ id: string }>(page, "/api/workspaces", { name: "Imported by the dialog" });
    await page.goto(`${server.base}/workspaces/${ws.id}`);
    await page.locator(".empty-work").waitFor();

    await page.getByRole("button", { name: "Import…" }).click();
    const dialog = page.getByRole("dialog", { name: "Import an Open Exchange file" });
    await dialog.getByLabel("Open Exchange XML file").setInputFiles(WITH_FORBIDDEN_RELATIONSHIPS);
    // Every value the progress bar shows, recorded in the page; the upload is slowed so that there are several.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver(() => {
        for (const p of document.querySelectorAll<HTMLProgressElement>('progress[aria-label="Upload progress"]'))
          if (seen[seen.length - 1] !== p.value) seen.push(p.value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 40 * 1024,
    });
    await dialog.getByRole("button", { name: "Import and replace" }).click();
    await dialog.locator("progress").waitFor();
    await dialog.locator(".warning-list").waitFor({ timeout: 60_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(
      seen.some((v) => v > 0 && v < 1),
      `progress values shown: ${seen.join(", ")}`,
    ).toBe(true);
    expect(seen.every((v, i) => v >= 0 && v <= 1 && (i === 0 || v >= seen[i - 1]!))).toBe(true);

    // The list is the server's, item by item: where in the file, then what.
    expect(await dialog.locator(".warning-list li").allTextContents()).toEqual(
      expected.map((w) => `${w.path}: ${w.message}`),
    );
    await dialog.getByText(`The model was imported with ${expected.length} warning`).waitFor();
    expect(await seriousViolations(page), "import warnings").toEqual([]);
    await screenshot(page, "import-warnings");
    await dialog.locator(".dialog-actions").getByRole("button", { name: "Close" }).click();

    const elements = await rest<Element[]>(page, "/api/elements");
    expect(elements.length).toBeGreaterThan(50);
    await expect.poll(() => page.getByRole("tab", { name: /^Model/ }).textContent()).toBe(`Model (${elements.length})`);
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
  }, 120_000);

  test("a new workspace from a file lists the import's warnings before it opens", async () => {
    const expected = await warningsOf(page, WITH_UNDEFINED_PROPERTY);
    expect(expected.length).toBeGreaterThan(0);
    await page.goto(`${server.base}/`);
    await page.getByRole("button", { name: "New workspace" }).click();
    const dialog = page.getByRole("dialog", { name: "New workspace" });
    await dialog.getByLabel("Name", { exact: true }).fill("AOEFF");
    await dialog.getByLabel(/Start from an Open Exchange file/).setInputFiles(WITH_UNDEFINED_PROPERTY);
    await dialog.getByRole("button", { name: "Create workspace" }).click();
    await dialog.locator(".warning-list").waitFor({ timeout: 60_000 });
    expect(await dialog.locator(".warning-list li").allTextContents()).toEqual(
      expected.map((w) => `${w.path}: ${w.message}`),
    );
    await dialog.getByText("The workspace AOEFF was created from the file.").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await seriousViolations(page), "new workspace warnings").toEqual([]);
    await screenshot(page, "new-workspace-import-warnings");
    await dialog.getByRole("button", { name: "Open the workspace" }).click();
    await page.waitForURL(/\/workspaces\//);
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    const info = await rest<{ workspace: { name: string } }>(page, "/api");
    expect(info.workspace.name).toBe("AOEFF");
  }, 120_000);

  test("Export XML downloads the model; a new workspace from that file holds the same model", async () => {
    // The AOEFF workspace of the previous test is open: documentation, properties, many views.
    const snapshot = async () => {
      const elements = await rest<Element[]>(page, "/api/elements");
      const relationships = await rest<Relationship[]>(page, "/api/relationships");
      const summaries = await rest<{ id: string }[]>(page, "/api/views");
      const views = await Promise.all(summaries.map((v) => rest<ViewDetail>(page, `/api/views/${v.id}`)));
      return { elements, relationships, views };
    };
    const original = await snapshot();
    expect(original.elements.length).toBeGreaterThan(50);
    expect(original.views.length).toBeGreaterThan(3);

    await page.getByRole("button", { name: "Export", exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export XML" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xml$/);
    const file = join(tmpdir(), `ams-roundtrip-${Date.now()}-${download.suggestedFilename()}`);
    await download.saveAs(file);
    expect(readFileSync(file, "utf8")).toContain("http://www.opengroup.org/xsd/archimate/3.0/");

    await page.getByRole("link", { name: "Workspaces" }).click();
    await page.getByRole("button", { name: "New workspace" }).click();
    const dialog = page.getByRole("dialog", { name: "New workspace" });
    await dialog.getByLabel("Name", { exact: true }).fill("AOEFF round trip");
    await dialog.getByLabel(/Start from an Open Exchange file/).setInputFiles(file);
    await dialog.getByRole("button", { name: "Create workspace" }).click();
    // Our own export is clean: no warnings, the new workspace opens at once.
    await page.waitForURL(/\/workspaces\//, { timeout: 60_000 });
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    expect((await rest<{ workspace: { name: string } }>(page, "/api")).workspace.name).toBe("AOEFF round trip");

    const copy = await snapshot();
    const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(copy.elements)).toEqual(byId(original.elements));
    expect(byId(copy.relationships)).toEqual(byId(original.relationships));
    expect(byId(copy.views)).toEqual(byId(original.views));
  }, 180_000);
});

describe("on a phone", () => {
  test("390x844: the view's commands fit the screen, the canvas starts near the top, the model tree opens on demand", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    page.on("pageerror", (e) => {
      throw e;
    });
    await signIn(page, server.base, "archi", PASSWORDS.archi!);
    await page.getByRole("link", { name: "Car insurance claims" }).click();
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    await screenshot(page, "modeler-phone-390");

    // Every control of the view toolbar is on screen and shows its whole label.
    const toolbar = page.getByRole("toolbar", { name: "View editor" });
    const allOnScreen = async () => {
      const controls = toolbar.locator("button:visible, select:visible");
      expect(await controls.count()).toBeGreaterThan(3);
      for (const control of await controls.all()) {
        const box = (await control.boundingBox())!;
        const label = (await control.getAttribute("aria-label")) ?? (await control.textContent());
        expect(box.x, `${label} starts on screen`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${label} ends on screen`).toBeLessThanOrEqual(390);
        expect(await control.evaluate((e) => e.scrollWidth <= e.clientWidth), `${label} is not clipped`).toBe(true);
      }
    };
    await allOnScreen();
    // The editing tools wait behind "Tools"; opened, they wrap onto whole rows.
    const tools = toolbar.getByRole("button", { name: "Tools", exact: true });
    expect(await tools.getAttribute("aria-expanded")).toBe("false");
    expect(await tool(page, "Delete from model").isVisible()).toBe(false);
    await tools.click();
    expect(await tools.getAttribute("aria-expanded")).toBe("true");
    for (const name of ["Connect", "Undo", "Delete from view", "Delete from model", "SVG", "PNG"])
      expect(await tool(page, name).isVisible(), name).toBe(true);
    await allOnScreen();
    expect(await seriousViolations(page), "phone toolbar opened").toEqual([]);
    await screenshot(page, "modeler-phone-390-tools");
    await tools.click();
    expect(await tool(page, "Connect").isVisible()).toBe(false);
    // The diagram is the first thing below the top bar and the toolbar, and fills most of the screen.
    const canvas = (await page.locator("svg.canvas").boundingBox())!;
    expect(canvas.y).toBeLessThan(260);
    expect(canvas.width).toBeGreaterThan(370);
    expect(canvas.height).toBeGreaterThan(400);
    expect(await page.locator("#panel-model").isVisible()).toBe(false);
    expect(await seriousViolations(page), "modeler on a phone").toEqual([]);

    // The model tree and the views list are one tap away; another view opens from there.
    const canvasLabel = await page.locator("svg.canvas").getAttribute("aria-label");
    const browse = page.getByRole("button", { name: /Model browser/ });
    expect(await browse.getAttribute("aria-expanded")).toBe("false");
    await browse.click();
    expect(await browse.getAttribute("aria-expanded")).toBe("true");
    await page.locator("#panel-model").waitFor();
    await page.getByRole("tab", { name: /Views/ }).click();
    const views = await rest<{ id: string; name: string }[]>(page, "/api/views");
    expect(views.length).toBeGreaterThan(1);
    expect(await seriousViolations(page), "model browser on a phone").toEqual([]);
    await screenshot(page, "modeler-phone-390-browser");
    const other = views.find((v) => !(canvasLabel ?? "").includes(v.name))!;
    await page.locator(".view-item", { hasText: other.name }).click();
    // The chosen view is drawn, and the browser folds away again so that the diagram is in sight.
    await expect.poll(() => page.locator("svg.canvas").getAttribute("aria-label")).toContain(other.name);
    expect(await browse.getAttribute("aria-expanded")).toBe("false");
    expect((await page.locator("svg.canvas").boundingBox())!.y).toBeLessThan(260);
    await context.close();
  }, 120_000);
});
