import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allowedRelationships, RELATIONSHIP_TYPES } from "@ams/shared";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchChromium, screenshot, signIn } from "./support/browser.ts";
import { canvasPoint, dragMouse } from "./support/canvas.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { trackWrites, writesSettled } from "./support/writes.ts";

/** expect.poll waits 1 s by default; an undo or redo on a loaded CI machine can take longer to reach the server. */
const POLL = { timeout: 15_000, interval: 100 };

/**
 * The modeler in real Chromium against the real server (started as `./pnpm start` starts it), driven by mouse and
 * keyboard as a person would, and checked through the REST API: what the screen built is what the server stores.
 */

const PASSWORDS: Record<string, string> = {
  admin: "admin-dev-password",
  archi: "archi-dev-password",
  contrib: "contrib-dev-password",
  user: "user-dev-password",
  open: "open-dev-password",
};

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function as(
  username: string,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on("pageerror", (e) => {
    throw e;
  });
  trackWrites(page);
  await signIn(page, server.base, username, PASSWORDS[username]!);
  return { context, page };
}

type ViewDetail = {
  nodes: Node[];
  connections: { id: string; relationship_id: string | null; bendpoints: { x: number; y: number }[] }[];
};
type Node = {
  id: string;
  element_id: string | null;
  kind: string;
  x: number;
  y: number;
  w: number;
  h: number;
  children: Node[];
};

const rest = async <T>(page: Page, path: string): Promise<T> => {
  const res = await page.request.get(`${server.base}${path}`);
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
};

async function nodeCenter(page: Page, name: string) {
  const box = (await page.locator(`svg.canvas g[data-node-id][data-label^="${name},"]`).first().boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const idle = writesSettled;

describe("signing in", () => {
  test("each demo user lands where they should", async () => {
    const landings: [string, RegExp][] = [
      ["admin", /You administer this platform/],
      ["open", /Workspaces of Open Org/],
      ["archi", /Workspaces of ArchiSurance/],
      ["contrib", /Workspaces of ArchiSurance/],
      ["user", /Workspaces of ArchiSurance/],
    ];
    for (const [username, heading] of landings) {
      const { context, page } = await as(username);
      await expect.poll(() => page.locator("main").textContent()).toMatch(heading);
      if (username === "archi") await screenshot(page, "workspaces-archi");
      if (username === "admin") await screenshot(page, "starter-home-admin");
      // Only owners and editors may create workspaces; viewers and the platform admin see no button at all.
      const canCreate = username === "archi" || username === "contrib" || username === "open";
      expect(await page.getByRole("button", { name: "New workspace" }).count()).toBe(canCreate ? 1 : 0);
      await context.close();
    }
  });

  test("a wrong password is explained on the sign-in page, and signing out returns to it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.base}/`);
    await page.waitForURL(/\/login/);
    await page.getByLabel("Username").fill("archi");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Invalid username or password");
    await screenshot(page, "sign-in-refused");
    await signIn(page, server.base, "archi", PASSWORDS.archi!);
    await page.getByRole("button", { name: /Demo Architect/ }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/login/);
    expect((await page.request.get(`${server.base}/api/me`)).status()).toBe(401);
    await context.close();
  });
});

describe("archi builds a model by mouse", () => {
  let page: Page;
  let context: BrowserContext;
  beforeAll(async () => {
    ({ context, page } = await as("archi", { width: 1600, height: 900 }));
  });
  afterAll(() => context?.close());

  test("workspace, view, drag from tree, palette, nesting, connect with an allowed type, bendpoint, undo", async () => {
    await page.getByRole("button", { name: "New workspace" }).click();
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Built by mouse");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.waitForURL(/\/workspaces\//);
    await expect.poll(() => page.locator(".empty-work").textContent()).toContain("no views yet");

    await page.getByRole("tab", { name: /Views/ }).click();
    await page.getByRole("button", { name: "New view" }).click();
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Main");
    await page.getByRole("button", { name: "Create view" }).click();
    await page.locator("svg.canvas").waitFor();

    // An element made in the tree, then dragged onto the canvas.
    await page.getByRole("tab", { name: /Model/ }).click();
    await page.getByRole("button", { name: "New element" }).click();
    await page.getByRole("dialog").getByLabel("Type", { exact: true }).selectOption("BusinessActor");
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Clerk");
    await page.getByRole("button", { name: "Create element" }).click();
    const canvas = page.locator("svg.canvas");
    const row = page.locator('[data-element-id]:has-text("Clerk")');
    await row.dragTo(canvas, { targetPosition: { x: 150, y: 120 } });
    await page.locator('g[data-label^="Clerk,"]').waitFor();

    // Palette: a role, a process and a grouping, each placed by a click.
    const place = async (type: string, x: number, y: number) => {
      await page.locator(`.palette button[data-type="${type}"]`).click();
      const at = await canvasPoint(page, x, y);
      await page.mouse.click(at.x, at.y);
      await idle(page);
    };
    await place("BusinessRole", 450, 100);
    await place("BusinessProcess", 150, 330);
    await place("Grouping", 480, 330);
    await page.locator('g[data-label^="Grouping,"]').waitFor();

    // Grow the grouping by its bottom-right handle, then nest the process in it by dragging.
    await page.mouse.click(...(Object.values(await nodeCenter(page, "Grouping")) as [number, number]));
    const se = (await page.locator('rect[data-handle="se"]').boundingBox())!;
    await dragMouse(page, { x: se.x + 3, y: se.y + 3 }, { x: se.x + 203, y: se.y + 143 });
    await idle(page);
    const groupCenter = await nodeCenter(page, "Grouping");
    await dragMouse(page, await nodeCenter(page, "Business Process"), { x: groupCenter.x, y: groupCenter.y + 20 });
    await idle(page);

    // Connect: only the types ArchiMate allows from an actor to a role are offered.
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await dragMouse(page, await nodeCenter(page, "Clerk"), await nodeCenter(page, "Business Role"));
    const dialog = page.getByRole("dialog", { name: "Connect" });
    await dialog.waitFor();
    await screenshot(page, "connect-dialog");
    const offered = await dialog.getByRole("radio").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    const allowed = allowedRelationships("BusinessActor", "BusinessRole");
    expect(offered.sort()).toEqual([...allowed].sort());
    const forbidden = RELATIONSHIP_TYPES.map((t) => t.name).filter((t) => !allowed.includes(t));
    expect(forbidden.length).toBeGreaterThan(0);
    expect(offered.filter((t) => forbidden.includes(t as never))).toEqual([]);
    // Independent of the table: an actor cannot access, realize, specialize or influence a role.
    for (const never of ["Access", "Realization", "Specialization", "Influence", "Composition"])
      expect(offered).not.toContain(never);
    await dialog.getByRole("radio", { name: "Assignment" }).check();
    await dialog.getByRole("button", { name: /Create Assignment relationship/ }).click();
    await idle(page);

    // A bendpoint: drag the middle of the selected connection.
    const views = await rest<{ id: string; name: string }[]>(page, "/api/views");
    const viewId = views[0]!.id;
    await expect.poll(async () => (await rest<ViewDetail>(page, `/api/views/${viewId}`)).connections.length).toBe(1);
    let detail = await rest<ViewDetail>(page, `/api/views/${viewId}`);
    const connId = detail.connections[0]!.id;
    const mid = (await page.locator(`circle[data-mid][data-conn="${connId}"]`).boundingBox())!;
    await dragMouse(page, { x: mid.x + 4, y: mid.y + 4 }, { x: mid.x + 4, y: mid.y + 64 });
    await idle(page);
    await screenshot(page, "modeler-built-by-mouse");

    // The server holds exactly what the screen shows.
    const elements = await rest<{ id: string; name: string; type: string }[]>(page, "/api/elements");
    expect(elements.map((e) => `${e.type}:${e.name}`).sort()).toEqual(
      [
        "BusinessActor:Clerk",
        "BusinessProcess:Business Process",
        "BusinessRole:Business Role",
        "Grouping:Grouping",
      ].sort(),
    );
    const byName = new Map(elements.map((e) => [e.name, e]));
    const relationships = await rest<{ type: string; source: string; target: string }[]>(page, "/api/relationships");
    expect(relationships).toEqual([
      expect.objectContaining({
        type: "Assignment",
        source: byName.get("Clerk")!.id,
        target: byName.get("Business Role")!.id,
      }),
    ]);
    detail = await rest<ViewDetail>(page, `/api/views/${viewId}`);
    const top = detail.nodes.map((n) => n.element_id).sort();
    expect(top).toEqual([byName.get("Clerk")!.id, byName.get("Business Role")!.id, byName.get("Grouping")!.id].sort());
    const group = detail.nodes.find((n) => n.element_id === byName.get("Grouping")!.id)!;
    expect(group.w).toBeGreaterThan(250);
    expect(group.children.map((c) => c.element_id)).toEqual([byName.get("Business Process")!.id]);
    const child = group.children[0]!;
    expect(child.x).toBeGreaterThanOrEqual(group.x);
    expect(child.x + child.w).toBeLessThanOrEqual(group.x + group.w);
    expect(detail.connections).toHaveLength(1);
    expect(detail.connections[0]!.bendpoints).toHaveLength(1);

    // Undo restores a move (Ctrl+Z on the canvas), redo makes it again.
    const clerk = () => detail.nodes.find((n) => n.element_id === byName.get("Clerk")!.id)!;
    const before = { x: clerk().x, y: clerk().y };
    await page.getByRole("button", { name: "Select", exact: true }).click();
    const from = await nodeCenter(page, "Clerk");
    await dragMouse(page, from, { x: from.x + 60, y: from.y + 40 });
    await idle(page);
    detail = await rest<ViewDetail>(page, `/api/views/${viewId}`);
    expect(clerk().x).not.toBe(before.x);
    await page.locator("svg.canvas").focus();
    await page.keyboard.press("Control+z");
    await idle(page);
    await expect
      .poll(async () => {
        detail = await rest<ViewDetail>(page, `/api/views/${viewId}`);
        return { x: clerk().x, y: clerk().y };
      }, POLL)
      .toEqual(before);
    await page.locator("svg.canvas").focus();
    await page.keyboard.press("Control+y");
    await idle(page);
    await expect
      .poll(async () => {
        detail = await rest<ViewDetail>(page, `/api/views/${viewId}`);
        return clerk().x;
      }, POLL)
      .not.toBe(before.x);
  }, 120_000);

  test("export, then import into a new workspace, gives the same model", async () => {
    const exported = await page.request.get(`${server.base}/api/export`);
    expect(exported.status()).toBe(200);
    const xml = await exported.text();
    const file = join(tmpdir(), `ams-export-${Date.now()}.xml`);
    writeFileSync(file, xml);
    const original = {
      elements: await rest<{ name: string; type: string }[]>(page, "/api/elements"),
      relationships: await rest<{ type: string }[]>(page, "/api/relationships"),
      views: await rest<{ id: string; name: string }[]>(page, "/api/views"),
    };
    const originalView = await rest<ViewDetail>(page, `/api/views/${original.views[0]!.id}`);

    await page.getByRole("link", { name: "Workspaces" }).click();
    await page.getByRole("button", { name: "New workspace" }).click();
    await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Round trip");
    await page.getByLabel(/Start from an Open Exchange file/).setInputFiles(file);
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.waitForURL(/\/workspaces\//);
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();

    const key = (e: { name: string; type: string }) => `${e.type}:${e.name}`;
    expect((await rest<{ name: string; type: string }[]>(page, "/api/elements")).map(key).sort()).toEqual(
      original.elements.map(key).sort(),
    );
    expect((await rest<{ type: string }[]>(page, "/api/relationships")).map((r) => r.type)).toEqual(
      original.relationships.map((r) => r.type),
    );
    const views = await rest<{ id: string; name: string }[]>(page, "/api/views");
    expect(views.map((v) => v.name)).toEqual(original.views.map((v) => v.name));
    const copy = await rest<ViewDetail>(page, `/api/views/${views[0]!.id}`);
    const shape = (v: ViewDetail) => JSON.stringify(v.nodes.map((n) => [n.x, n.y, n.w, n.h, n.children.length]));
    expect(shape(copy)).toBe(shape(originalView));
    expect(copy.connections.map((c) => c.bendpoints)).toEqual(originalView.connections.map((c) => c.bendpoints));
  }, 120_000);
  test("keyboard selection and nudging, a note with its text, a bendpoint removed by double-click", async () => {
    // The round-trip workspace of the previous test is open, with the view drawn by mouse.
    const views = await rest<{ id: string }[]>(page, "/api/views");
    const viewId = views[0]!.id;
    const before = await rest<ViewDetail>(page, `/api/views/${viewId}`);
    await page.locator("svg.canvas").focus();
    await page.keyboard.press("]");
    expect(await page.locator(".selection-outline").count()).toBe(1);
    const first = before.nodes[0]!;
    // Five presses in one task, with no re-render between them (as keys repeat on a loaded machine): each moves on
    // from where the one before left the node. Before the fix they all started from the drawn position (CI,
    // 27 November: 5 presses moved the node by 2).
    await page.locator("svg.canvas").evaluate((canvas) => {
      for (let i = 0; i < 5; i++) {
        canvas.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true, cancelable: true }));
      }
    });
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
    await expect
      .poll(async () => (await rest<ViewDetail>(page, `/api/views/${viewId}`)).nodes[0]!.x)
      .toBe(first.x + 10);

    const bend = before.connections[0]!.bendpoints[0]!;
    const at = await canvasPoint(page, bend.x, bend.y);
    await page.mouse.click(at.x, at.y);
    await page.locator("rect[data-bend]").waitFor();
    await page.mouse.dblclick(at.x, at.y);
    await expect
      .poll(async () => (await rest<ViewDetail>(page, `/api/views/${viewId}`)).connections[0]!.bendpoints)
      .toEqual([]);

    await page.locator(".palette button[aria-pressed]", { hasText: "Note" }).click();
    const spot = await canvasPoint(page, 120, 520);
    await page.mouse.click(spot.x, spot.y);
    // The note is typed into once the server has it and the panel shows it (under load, text typed before the
    // panel switched to the new note was lost with the panel's old field; CI, 27 November).
    await expect
      .poll(async () =>
        (await rest<ViewDetail>(page, `/api/views/${viewId}`)).nodes.some((n) => (n as Node).kind === "label"),
      )
      .toBe(true);
    await expect.poll(() => page.getByLabel("Text", { exact: true }).inputValue()).toBe("Note");
    await page.getByLabel("Text", { exact: true }).fill("Reviewed with the claims team");
    await page.getByLabel("Text", { exact: true }).blur();
    await expect
      .poll(async () => {
        const nodes = (await rest<ViewDetail>(page, `/api/views/${viewId}`)).nodes as (Node & { label?: string })[];
        return nodes.filter((n) => n.kind === "label").map((n) => n.label);
      })
      .toEqual(["Reviewed with the claims team"]);
    await screenshot(page, "modeler-note");

    // A note typed into at once, while the server has not answered its creation yet (held back here for a
    // second): the text is saved once the note exists, not lost to a save that came first.
    await page.route("**/nodes", async (route) => {
      if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await page.locator(".palette button[aria-pressed]", { hasText: "Note" }).click();
    const spot2 = await canvasPoint(page, 420, 520);
    await page.mouse.click(spot2.x, spot2.y);
    await page.getByLabel("Text", { exact: true }).fill("Typed before it was saved");
    await page.getByLabel("Text", { exact: true }).blur();
    await expect
      .poll(async () => {
        const nodes = (await rest<ViewDetail>(page, `/api/views/${viewId}`)).nodes as (Node & { label?: string })[];
        return nodes
          .filter((n) => n.kind === "label")
          .map((n) => n.label)
          .sort();
      })
      .toEqual(["Reviewed with the claims team", "Typed before it was saved"]);
    await page.unroute("**/nodes");
    await expect.poll(() => page.getByLabel("Text", { exact: true }).inputValue()).toBe("Typed before it was saved");
  }, 120_000);
});

describe("roles", () => {
  test("a viewer sees the model read-only: no edit control at all, and a direct write is refused", async () => {
    const { context, page } = await as("user");
    await page.getByRole("link", { name: "Car insurance claims" }).click();
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    await screenshot(page, "modeler-viewer");
    for (const name of [
      "New element",
      "New view",
      "Import…",
      "Connect",
      "Delete from view",
      "Delete from model",
      "Undo",
    ]) {
      expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(0);
    }
    expect(await page.locator(".palette").count()).toBe(0);
    expect(await page.locator('[draggable="true"]').count()).toBe(0);
    // Fields are read-only.
    await page.locator('[data-element-id]:has-text("Customer")').first().click();
    expect(await page.locator("#el-name").getAttribute("readonly")).not.toBeNull();
    // Dragging a node moves nothing on the server.
    const views = await rest<{ id: string }[]>(page, "/api/views");
    const before = await rest<ViewDetail>(page, `/api/views/${views[0]!.id}`);
    const target = page.locator("svg.canvas g[data-node-id]").first();
    const box = (await target.boundingBox())!;
    await dragMouse(page, { x: box.x + 10, y: box.y + 10 }, { x: box.x + 110, y: box.y + 60 });
    await idle(page);
    expect(await rest<ViewDetail>(page, `/api/views/${views[0]!.id}`)).toEqual(before);
    const write = await page.request.post(`${server.base}/api/elements`, {
      headers: { origin: server.base },
      data: { name: "Sneaky", type: "BusinessActor" },
    });
    expect(write.status()).toBe(403);
    await context.close();
  });

  test("the sample model opens for archi with its views, and reads on a phone", async () => {
    const { context, page } = await as("archi", { width: 390, height: 844 });
    await page.getByRole("link", { name: "Car insurance claims" }).click();
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    expect(await page.locator("svg.canvas g[data-node-id]").count()).toBeGreaterThan(15);
    await screenshot(page, "modeler-phone");
    await context.close();
  });
});

describe("two people editing the same model", () => {
  test("a stale rename is never silent (both values shown, the user chooses), and a stale screen never writes over a deleted element", async () => {
    const archi = await as("archi");
    const contrib = await as("contrib");
    const post = async (page: Page, path: string, data: unknown) => {
      const res = await page.request.post(`${server.base}${path}`, { headers: { origin: server.base }, data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as { id: string };
    };
    const ws = await post(archi.page, "/api/workspaces", { name: "Shared by two" });
    const doomed = await post(archi.page, "/api/elements", { name: "Doomed", type: "ApplicationComponent" });
    const kept = await post(archi.page, "/api/elements", { name: "Kept", type: "ApplicationComponent" });
    const open = async (page: Page) => {
      await page.goto(`${server.base}/workspaces/${ws.id}`);
      await page.locator(".empty-work").waitFor();
    };
    // contrib's events stream is held back, so his screen stays behind archi's writes as it would while a stream
    // lags or reconnects: what is checked here is that a stale screen never overwrites (the live screen is
    // live-modeler.test.ts's).
    await contrib.page.route("**/events*", (route) => route.abort());
    await open(archi.page);
    await open(contrib.page);

    // Both rename the same element: the later save meets the first (412) and shows both names instead of
    // overwriting; the model keeps the first until the second person chooses (issue 24).
    const rename = async (page: Page, from: string, to: string) => {
      await page.locator(`[data-element-id]:has-text("${from}")`).first().click();
      await page.locator("#el-name").fill(to);
      await page.locator("#el-name").press("Enter");
      await idle(page);
    };
    await rename(archi.page, "Kept", "Kept by archi");
    await rename(contrib.page, "Kept", "Kept by contrib");
    const get = (page: Page, id: string) => page.request.get(`${server.base}/api/elements/${id}`);
    const conflict = contrib.page.getByRole("alert").filter({ hasText: "Changed by someone else" });
    await conflict.waitFor();
    expect(await conflict.locator(".conflict-theirs").textContent()).toBe("Kept by archi");
    expect(((await (await get(archi.page, kept.id)).json()) as { name: string }).name).toBe("Kept by archi");
    await conflict.getByRole("button", { name: "Keep mine" }).click();
    await expect
      .poll(async () => ((await (await get(archi.page, kept.id)).json()) as { name: string }).name)
      .toBe("Kept by contrib");
    await conflict.waitFor({ state: "detached" });

    // archi deletes an element that contrib's screen still shows; contrib's edit is refused in plain words.
    await contrib.page.locator('[data-element-id]:has-text("Doomed")').first().click();
    expect(
      (
        await archi.page.request.delete(`${server.base}/api/elements/${doomed.id}`, {
          headers: { origin: server.base },
        })
      ).status(),
    ).toBe(204);
    await contrib.page.locator("#el-name").fill("Resurrected?");
    await contrib.page.locator("#el-name").press("Enter");
    await expect
      .poll(() => contrib.page.getByRole("alert").first().textContent())
      .toContain("deleted by someone else meanwhile");
    await screenshot(contrib.page, "stale-edit-refused");
    expect((await get(contrib.page, doomed.id)).status()).toBe(404);
    await expect
      .poll(() => contrib.page.locator('[data-element-id]:has-text("Doomed")').count(), {
        message: "the deleted element in the tree",
      })
      .toBe(0);
    await archi.context.close();
    await contrib.context.close();
  }, 120_000);
});
