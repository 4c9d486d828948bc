import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { canvasPoint, dragMouse } from "./support/canvas.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/**
 * No silent overwrite (issue 24), in real Chromium with two browser contexts on the same element: archi (Ana) and
 * contrib (Ben) both have it open in the properties panel. Every save carries If-Match; a save that meets the other's
 * change is merged field by field when the fields differ, and shown as a conflict with both values when they do not,
 * resolved by the user without losing either value.
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

type Stored = { id: string; name: string; documentation: string | null; revision: number };

describe("two people edit the same element", () => {
  let ana: { context: BrowserContext; page: Page };
  let ben: { context: BrowserContext; page: Page };
  let elementId = "";
  let workspaceId = "";
  /** Every PUT and DELETE either page sent to the API, with its If-Match header. */
  const writes: { page: string; method: string; url: string; ifMatch: string | undefined }[] = [];

  const stored = async (): Promise<Stored> => {
    const res = await ana.page.request.get(`${server.base}/api/elements/${elementId}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as Stored;
  };
  /** Types a value into a panel field and leaves it, which saves it. */
  const edit = async (page: Page, field: "#el-name" | "#el-doc", value: string) => {
    await page.locator(field).fill(value);
    await page.locator(field === "#el-name" ? "#el-doc" : "#el-name").focus();
  };

  beforeAll(async () => {
    [ana, ben] = await Promise.all([
      signedIn(browser, server.base, "archi"),
      signedIn(browser, server.base, "contrib"),
    ]);
    const post = async (path: string, data: unknown) => {
      const res = await ana.page.request.post(`${server.base}${path}`, { headers: { origin: server.base }, data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: string };
    };
    for (const [name, { page }] of [
      ["ana", ana],
      ["ben", ben],
    ] as const) {
      page.on("request", (req) => {
        if ((req.method() === "PUT" || req.method() === "DELETE") && new URL(req.url()).pathname.startsWith("/api/"))
          writes.push({ page: name, method: req.method(), url: req.url(), ifMatch: req.headers()["if-match"] });
      });
    }
    // Ben's events stream is held back, so his screen stays behind Ana's saves as it would while a stream lags or
    // reconnects: what these tests exercise is the If-Match / 412 path that catches what the live update did not.
    await ben.page.route("**/events*", (route) => route.abort());
    const ws = await post("/api/workspaces", { name: "Shared model" });
    workspaceId = ws.id;
    elementId = (await post("/api/elements", { name: "Claims register", type: "ApplicationComponent" })).id;
    for (const { page } of [ana, ben]) {
      await page.goto(`${server.base}/workspaces/${ws.id}`);
      await page.locator('[data-element-id]:has-text("Claims register")').first().click();
      await page.locator("#el-name").waitFor();
      expect(await page.locator("#el-name").inputValue()).toBe("Claims register");
    }
  }, 180_000);
  afterAll(async () => {
    await ana?.context.close();
    await ben?.context.close();
  });

  test("different fields merge without asking: her name and his documentation both stay", async () => {
    await edit(ana.page, "#el-name", "Claims ledger");
    await expect.poll(async () => (await stored()).name).toBe("Claims ledger");
    // Ben still has the first revision on screen; his documentation meets her rename (412) and is merged.
    await edit(ben.page, "#el-doc", "Ben's notes");
    await expect.poll(async () => (await stored()).documentation).toBe("Ben's notes");
    expect((await stored()).name).toBe("Claims ledger");
    await expect.poll(() => ben.page.locator("#el-name").inputValue()).toBe("Claims ledger");
    expect(await ben.page.locator(".conflict").count()).toBe(0);
    // Ana, now behind Ben's documentation, renames again: merged the same way.
    await edit(ana.page, "#el-name", "Claims register v2");
    await expect.poll(async () => (await stored()).name).toBe("Claims register v2");
    expect((await stored()).documentation).toBe("Ben's notes");
  }, 60_000);

  test("the same field changed by both shows both values; keep mine sends mine with the new revision", async () => {
    // Ben is behind Ana's second rename and renames too: the same field, different values.
    const before = await stored();
    await edit(ben.page, "#el-name", "Claims book");
    const box = ben.page.getByRole("alert").filter({ hasText: "Changed by someone else" });
    await box.waitFor();
    await expect.poll(() => box.locator(".conflict-mine").first().textContent()).toBe("Claims book");
    expect(await box.locator(".conflict-theirs").first().textContent()).toBe("Claims register v2");
    // Nothing was overwritten: the server still has her name, and his field shows it while the box holds his.
    expect(await stored()).toMatchObject({ name: "Claims register v2", revision: before.revision });
    await expect.poll(() => ben.page.locator("#el-name").inputValue()).toBe("Claims register v2");
    expect(await seriousViolations(ben.page), "properties panel with a conflict").toEqual([]);
    await screenshot(ben.page, "conflict-rename");

    await box.getByRole("button", { name: "Keep mine" }).click();
    await expect.poll(async () => (await stored()).name).toBe("Claims book");
    expect((await stored()).documentation).toBe("Ben's notes");
    await expect.poll(() => ben.page.locator("#el-name").inputValue()).toBe("Claims book");
    expect(await ben.page.locator(".conflict").count()).toBe(0);
  }, 60_000);

  test("take theirs keeps their value and drops mine, after both were shown", async () => {
    // Ana, behind Ben's rename, rewrites the documentation; Ben, behind hers, rewrites it too.
    await edit(ana.page, "#el-doc", "Ana's notes");
    await expect.poll(async () => (await stored()).documentation).toBe("Ana's notes");
    expect((await stored()).name).toBe("Claims book");
    await edit(ben.page, "#el-doc", "Ben's second notes");
    const box = ben.page.getByRole("alert").filter({ hasText: "Changed by someone else" });
    await box.waitFor();
    expect(await box.locator(".conflict-mine").first().textContent()).toBe("Ben's second notes");
    expect(await box.locator(".conflict-theirs").first().textContent()).toBe("Ana's notes");
    await screenshot(ben.page, "conflict-documentation");
    await box.getByRole("button", { name: "Take theirs" }).click();
    await box.waitFor({ state: "detached" });
    expect(await ben.page.locator("#el-doc").inputValue()).toBe("Ana's notes");
    expect(await stored()).toMatchObject({ name: "Claims book", documentation: "Ana's notes" });
  }, 60_000);

  test("a node someone else moved meanwhile ends where the user dropped it (moves are last-writer)", async () => {
    const post = async (path: string, data: unknown) => {
      const res = await ana.page.request.post(`${server.base}${path}`, { headers: { origin: server.base }, data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: string };
    };
    const view = await post("/api/views", { name: "Shared view" });
    const node = await post(`/api/views/${view.id}/nodes`, { element_id: elementId, x: 100, y: 100, w: 120, h: 55 });
    const position = async () => {
      const res = await ana.page.request.get(`${server.base}/api/views/${view.id}`);
      const detail = (await res.json()) as { nodes: { id: string; x: number; y: number }[] };
      const n = detail.nodes.find((d) => d.id === node.id);
      return { x: n?.x, y: n?.y };
    };
    for (const { page } of [ana, ben]) {
      await page.goto(`${server.base}/workspaces/${workspaceId}?view=${view.id}`);
      await page.locator(`svg.canvas g[data-node-id="${node.id}"]`).waitFor();
    }
    // Ana moves it right; Ben, whose screen still shows it at (100, 100), drags it down from there.
    await dragMouse(ana.page, await canvasPoint(ana.page, 160, 127), await canvasPoint(ana.page, 360, 127));
    await expect.poll(async () => (await position()).x).toBe(300);
    await dragMouse(ben.page, await canvasPoint(ben.page, 160, 127), await canvasPoint(ben.page, 160, 277));
    await expect.poll(position).toEqual({ x: 100, y: 250 });
    expect(await ben.page.locator(".notice-error").count()).toBe(0);
    // His first write named the revision he had seen and was refused (412); the same move went again with hers.
    const bensMoves = writes.filter((w) => w.page === "ben" && w.url.endsWith(`/nodes/${node.id}`));
    expect(bensMoves.length).toBe(2);
    expect(bensMoves[0]?.ifMatch).not.toBe(bensMoves[1]?.ifMatch);
    await screenshot(ben.page, "conflict-move-ends-where-dropped");

    // Every write either page sent carried the revision it last saw.
    expect(writes.length).toBeGreaterThan(8);
    expect(writes.filter((w) => !/^"\d+"$/.test(w.ifMatch ?? ""))).toEqual([]);
  }, 60_000);
});
