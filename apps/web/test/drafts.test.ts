import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot, signIn } from "./support/browser.ts";
import { canvasPoint, dragMouse } from "./support/canvas.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { PASSWORDS, signedIn } from "./support/users.ts";

/**
 * Issue 25's "done when" in the browser, on real PostgreSQL: an editor (Demo Contributor) forks "Target 2027" from
 * the Drafts page, moves a node on the canvas and changes five elements in the draft, while the owner (Demo
 * Architect) renames one of the same elements in the base; the banner over the draft's modeler counts both; the review
 * page lists the draft's changes by view and by object with the view's diff picture and the conflict; the owner
 * approves; the merge dialog walks through the conflict (and one the owner makes meanwhile, which the server's 409
 * names); the base's Activity shows the merge and the draft is read-only. An assistant's draft reads "Claude …
 * proposed 2 changes" in the list. Every page axe-clean, and at a phone's 390 px without sideways scrolling.
 */

let database: TestDatabase;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase("ams_web_drafts");
  [server, browser] = await Promise.all([startServer({ DATABASE_URL: database.url }), launchChromium()]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
});

type Sent = { id: string; name: string; revision: number; token?: string };

describe("a draft from fork to merge in the browser", () => {
  let ed: { context: BrowserContext; page: Page };
  let owner: { context: BrowserContext; page: Page };
  const ids: Record<string, string> = {};
  let draftId = "";

  const send = async (page: Page, method: "post" | "put" | "delete", path: string, data?: unknown) => {
    const res = await page.request[method](`${server.base}${path}`, { headers: { origin: server.base }, data });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (res.status() === 204 ? {} : await res.json()) as Sent;
  };
  const get = async <T>(page: Page, path: string) => {
    const res = await page.request.get(`${server.base}${path}`);
    expect(res.status(), `GET ${path}`).toBe(200);
    return (await res.json()) as T;
  };
  /** The owner's REST writes go to the base: the review page makes the draft the owner's active workspace. */
  const inBase = (page: Page) => send(page, "post", `/api/workspaces/${ids.base}/activate`);
  const noSidewaysScroll = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  beforeAll(async () => {
    [ed, owner] = await Promise.all([
      signedIn(browser, server.base, "contrib"),
      signedIn(browser, server.base, "archi"),
    ]);
    // Up to eight test runs share two cores here: a page's first load can take longer than the default.
    for (const who of [ed, owner]) who.context.setDefaultTimeout(45_000);
    const me = await get<{ active_organization_id: string }>(owner.page, "/api/me");
    ids.org = me.active_organization_id;
    ids.base = (await send(owner.page, "post", "/api/workspaces", { name: "Car insurance claims" })).id;
    await inBase(owner.page);
    for (const name of ["Claims register", "Payments", "Fraud check", "Customer portal", "Policy admin"])
      ids[name] = (await send(owner.page, "post", "/api/elements", { name, type: "ApplicationComponent" })).id;
    ids.view = (await send(owner.page, "post", "/api/views", { name: "Claims landscape" })).id;
    ids.node = (
      await send(owner.page, "post", `/api/views/${ids.view}/nodes`, {
        element_id: ids["Claims register"],
        x: 40,
        y: 40,
        w: 140,
        h: 60,
      })
    ).id;
    await send(owner.page, "post", `/api/views/${ids.view}/nodes`, {
      element_id: ids.Payments,
      x: 320,
      y: 40,
      w: 140,
      h: 60,
    });
    // Merging needs one approval from someone other than the draft's author.
    await send(owner.page, "put", `/api/organizations/${ids.org}`, {
      draft_approvals_required: 1,
      assistants_write_to_drafts: true,
    });

    // An assistant (an API token marked as an assistant's, over MCP) proposes two elements: they land in a draft.
    const token = await send(owner.page, "post", "/api/settings/api-tokens", {
      name: "Claude",
      organization_id: ids.org,
      assistant: true,
    });
    const client = new Client({ name: "drafts-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${String(token.token)}` } },
      }),
    );
    for (const name of ["Claims chatbot", "Photo triage"]) {
      const made = await client.callTool({
        name: "create_element",
        arguments: { name, type: "ApplicationComponent", workspace_id: ids.base },
      });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
    }
    await client.close();
  }, 180_000);
  afterAll(async () => {
    await ed?.context.close();
    await owner?.context.close();
  });

  test("the Drafts page lists the assistant's proposal; the editor forks “Target 2027” and lands in its modeler", async () => {
    const page = ed.page;
    await page.goto(`${server.base}/workspaces/${ids.base}`);
    await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name: "Drafts" }).click();
    await page.waitForURL(`**/workspaces/${ids.base}/drafts`);
    const proposal = page.locator('[data-draft="Proposal by Claude"]');
    await proposal.waitFor();
    expect(await proposal.textContent()).toMatch(/Claude \(for Demo Architect\) proposed 2 changes/);
    expect(await proposal.textContent()).toMatch(/0\/1 approvals/);
    // Conflicts are counted after the list is shown.
    await proposal.getByText("0 conflicts with the current model").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-list");

    await page.getByRole("button", { name: "New draft" }).click();
    const dialog = page.getByRole("dialog", { name: "New draft" });
    await dialog.getByLabel("Name").fill("Target 2027");
    await dialog.getByLabel("Description (optional)").fill("Claims handling as planned for 2027");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-new-dialog");
    await dialog.getByRole("button", { name: "Create and open" }).click();
    await page.waitForURL(
      (url) => /^\/workspaces\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(String(ids.base)),
    );
    draftId = new URL(page.url()).pathname.split("/")[2] ?? "";
    const banner = page.getByRole("region", { name: "Draft" });
    await banner.getByText("0 changes").waitFor();
    expect(await banner.textContent()).toMatch(/Draft “Target 2027” of Car insurance claims — 0 changes, 0 conflicts/);
    // The draft is not among the workspaces; its base lists it.
    const workspaces = await get<{ id: string }[]>(page, "/api/workspaces");
    expect(workspaces.map((w) => w.id)).not.toContain(draftId);
  }, 180_000);

  test("the editor moves a node and changes five elements while the owner renames one in the base", async () => {
    const page = ed.page;
    await page.locator("svg.canvas g[data-node-id]").nth(1).waitFor();
    // The owner renames "Claims register" in the base meanwhile.
    await inBase(owner.page);
    await send(owner.page, "put", `/api/elements/${ids["Claims register"]}`, { name: "Claim records" });

    // On the draft's canvas: drag "Claims register" 200 right, 160 down.
    await dragMouse(page, await canvasPoint(page, 100, 70), await canvasPoint(page, 300, 230));
    await expect
      .poll(async () => {
        const view = await get<{ nodes: { id: string; x: number; y: number }[] }>(page, `/api/views/${ids.view}`);
        return view.nodes.find((n) => n.id === ids.node)?.x;
      })
      .toBeGreaterThan(150);
    // Five elements, in the draft (the editor's active workspace): a rename and four documentations.
    await send(page, "put", `/api/elements/${ids["Claims register"]}`, { name: "Claims ledger" });
    for (const name of ["Payments", "Fraud check", "Customer portal", "Policy admin"])
      await send(page, "put", `/api/elements/${ids[name]}`, { documentation: `${name} as of 2027` });

    const banner = page.getByRole("region", { name: "Draft" });
    await banner.getByText("6 changes").waitFor();
    await banner.getByText("1 conflict with the current model").waitFor();
    // The base is untouched by the draft.
    await inBase(owner.page);
    const inBaseNow = await get<{ name: string; documentation: string | null }>(
      owner.page,
      `/api/elements/${ids.Payments}`,
    );
    expect(inBaseNow.documentation).toBeNull();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-modeler-banner");
  }, 180_000);

  test("the review page shows the draft's changes by view and by object, the view's picture and the conflict", async () => {
    const page = ed.page;
    await page.getByRole("region", { name: "Draft" }).getByRole("link", { name: "Review and merge" }).click();
    await page.waitForURL(`**/workspaces/${draftId}/review`);
    const byView = page.getByRole("list", { name: "By view" });
    await byView.locator(".change-item").first().waitFor();
    expect(await byView.textContent()).toMatch(/Changed view “Claims landscape”/);
    expect(await byView.textContent()).toMatch(/Node “Claims (register|ledger)” moved \(40, 40\) → \(2\d\d, 2\d\d\)/);
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>(".diff-picture img");
      return img?.complete && img.naturalWidth > 0;
    });
    const src = (await byView.locator(".diff-picture img").first().getAttribute("src")) ?? "";
    const drawn = await (await page.request.get(`${server.base}${src}`)).text();
    expect(drawn).toContain(`data-id="${ids.node}"`);
    expect(drawn).toContain("diff-changed");
    expect(drawn).toContain("Changes from the fork to revision");

    const byObject = page.getByRole("list", { name: "By object" });
    const items = byObject.locator(".change-item");
    expect(await items.count()).toBe(5);
    const ledger = byObject.locator(`[data-object="${ids["Claims register"]}"]`);
    expect(await ledger.textContent()).toMatch(/Changed Application Component “Claims ledger”.*conflict/);
    await ledger.locator("summary").click();
    expect(await ledger.locator(".field-changes").textContent()).toMatch(/name: Claims register.*Claims ledger/);
    await ledger
      .getByLabel("Comment on Application Component “Claims ledger”")
      .fill("The new name follows 2027's glossary.");
    await ledger.getByRole("button", { name: "Comment" }).click();
    await page
      .getByRole("list", { name: "Reviews and comments" })
      .getByText("The new name follows 2027's glossary.")
      .waitFor();

    const conflicts = page.locator("#conflicts");
    expect(await conflicts.textContent()).toMatch(
      /Claims ledger.*name.*At the fork.*Claims register.*In the draft.*Claims ledger.*In Car insurance claims now.*Claim records/s,
    );
    // The owner's approval is still missing: merging waits for it.
    expect(await page.getByRole("button", { name: "Merge…" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Submit for review" }).click();
    await page.locator(".draft-summary").getByText("ready for review").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-review");
  }, 180_000);

  test("the owner approves with a comment; the editor merges through the conflicts, one of them new", async () => {
    const rev = owner.page;
    await rev.goto(`${server.base}/workspaces/${draftId}/review`);
    await rev.getByRole("radio", { name: "Approve" }).check();
    await rev.getByLabel("Comment", { exact: true }).fill("Fine for 2027.");
    await rev.getByRole("button", { name: "Approve" }).click();
    await rev.locator(".draft-summary").getByText("1/1 approvals").waitFor();

    const page = ed.page;
    await page.reload();
    await page.locator(".draft-summary").getByText("1/1 approvals").waitFor();
    await page.getByRole("button", { name: "Merge…" }).click();
    const dialog = page.getByRole("dialog", { name: "Merge “Target 2027” into Car insurance claims" });
    await dialog.getByText("Conflict 1 of 1").waitFor();
    expect(await dialog.locator(".conflict-table").textContent()).toMatch(
      /At the fork.*Claims register.*In the draft.*Claims ledger.*now.*Claim records/s,
    );
    await dialog.getByRole("radio", { name: "Another value" }).check();
    await dialog.getByLabel("Value for name").fill("Claims ledger (claim records)");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-merge-dialog");

    // Meanwhile the owner documents "Payments" in the base: the merge is refused naming it, and walks through it too.
    await inBase(owner.page);
    await send(owner.page, "put", `/api/elements/${ids.Payments}`, { documentation: "Pays out claims" });
    await dialog.getByRole("button", { name: "Merge", exact: true }).click();
    const refusal = dialog.locator(".merge-refusal");
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /Car insurance claims changed meanwhile: 1 conflict to decide.*Application Component “Payments”: Both changed documentation/,
    );
    // Walked through again in the same order (by name), at the one still undecided; the first choice is kept.
    await dialog.getByText("Conflict 2 of 2").waitFor();
    expect(await dialog.locator("legend").textContent()).toMatch(/Element Payments, field documentation/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-merge-refused");
    await dialog.getByRole("radio", { name: /Keep the current/ }).check();
    await dialog.getByRole("button", { name: "Previous" }).click();
    await dialog.getByText("Conflict 1 of 2").waitFor();
    expect(await dialog.getByLabel("Value for name").inputValue()).toBe("Claims ledger (claim records)");
    await dialog.getByRole("button", { name: "Next conflict" }).click();
    await dialog.getByText("Conflict 2 of 2").waitFor();
    await dialog.getByRole("button", { name: "Merge", exact: true }).click();
    await dialog.waitFor({ state: "detached" });

    const summary = page.locator(".draft-summary");
    await summary.getByText("merged", { exact: true }).waitFor();
    expect(await summary.textContent()).toMatch(/was merged into 'Car insurance claims'.*read-only/);
    expect(await page.getByRole("button", { name: "Merge…" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Comment" }).count()).toBe(0);
    await inBase(owner.page);
    const merged = await get<{ name: string; documentation: string | null }>(
      owner.page,
      `/api/elements/${ids["Claims register"]}`,
    );
    expect(merged.name).toBe("Claims ledger (claim records)");
    expect((await get<{ documentation: string }>(owner.page, `/api/elements/${ids.Payments}`)).documentation).toBe(
      "Pays out claims",
    );
    expect(
      (await get<{ documentation: string }>(owner.page, `/api/elements/${ids["Fraud check"]}`)).documentation,
    ).toBe("Fraud check as of 2027");
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-merged");

    // The base's history shows the merge.
    await summary.getByRole("link", { name: "See the merge in the activity of Car insurance claims" }).click();
    await page.waitForURL(`**/workspaces/${ids.base}/activity`);
    const entry = page.getByRole("list", { name: "Changes" }).locator(".history-entry").first();
    await entry.getByText("Merged draft 'Target 2027' (reviewed by Demo Architect)").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-activity-merge");
  }, 240_000);

  test("the merged draft is read-only: the banner says so, the modeler offers no edits, the server refuses", async () => {
    const page = ed.page;
    await page.goto(`${server.base}/workspaces/${draftId}`);
    const banner = page.getByRole("region", { name: "Draft" });
    await banner.getByText(/read-only/).waitFor();
    expect(await banner.textContent()).toMatch(/was merged into 'Car insurance claims': read-only/);
    await page.locator("svg.canvas g[data-node-id]").first().waitFor();
    expect(await page.locator(".topbar-title").textContent()).toContain("read-only");
    const late = await page.request.put(`${server.base}/api/elements/${ids.Payments}`, {
      headers: { origin: server.base },
      data: { name: "Too late" },
    });
    expect(late.status()).toBe(409);
    await page.goto(`${server.base}/workspaces/${ids.base}/drafts`);
    const closed = page.getByRole("list", { name: "Merged and closed" });
    // What the page showed instead, if the list never came (seen once in a clean-clone run under load, not since).
    await closed
      .locator('[data-draft="Target 2027"]')
      .waitFor()
      .catch(async (err: Error) => {
        await screenshot(page, "drafts-closed-list-missing");
        throw new Error(`${err.message}\npage: ${page.url()}\n${await page.locator("body").textContent()}`);
      });
    expect(
      await closed
        .locator('[data-draft="Target 2027"]')
        .getByRole("button", { name: /Discard/ })
        .count(),
    ).toBe(0);
  }, 120_000);

  test("a merge the server refuses as invalid ArchiMate is shown naming the relationship and its elements", async () => {
    await inBase(owner.page);
    const job = (await send(owner.page, "post", "/api/elements", { name: "Nightly job", type: "ApplicationComponent" }))
      .id;
    const jobs = await send(ed.page, "post", `/api/workspaces/${ids.base}/drafts`, { name: "Jobs" });
    await send(ed.page, "post", `/api/workspaces/${jobs.id}/activate`);
    await send(ed.page, "post", "/api/relationships", { type: "Serving", source: job, target: ids.Payments });
    // Meanwhile the base makes the job a data object, which serves nothing: no conflict, but no valid merge either.
    await send(owner.page, "put", `/api/elements/${job}`, { type: "DataObject" });
    await send(owner.page, "post", `/api/drafts/${jobs.id}/reviews`, { decision: "approve", comment: "" });

    const page = ed.page;
    await page.goto(`${server.base}/workspaces/${jobs.id}/review`);
    await page.locator(".draft-summary").getByText("1/1 approvals").waitFor();
    await page.getByRole("button", { name: "Merge…" }).click();
    const dialog = page.getByRole("dialog", { name: "Merge “Jobs” into Car insurance claims" });
    await dialog.getByText(/No conflicts with the current model/).waitFor();
    await dialog.getByRole("button", { name: "Merge", exact: true }).click();
    const refusal = dialog.locator(".merge-refusal");
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /The merged model would not be valid:.*Serving relationship: ArchiMate 3\.1 does not allow Serving from DataObject 'Nightly job' to ApplicationComponent 'Payments'/s,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "drafts-merge-invalid");
    expect((await get<{ state: string }>(page, `/api/drafts/${jobs.id}`)).state).toBe("open");
  }, 180_000);

  test("at a phone's 390 px the Drafts, review and modeler pages fit without sideways scrolling", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(45_000);
    const page = await context.newPage();
    page.on("pageerror", (e) => {
      throw e;
    });
    try {
      await signIn(page, server.base, "contrib", PASSWORDS.contrib!);
      await page.goto(`${server.base}/workspaces/${ids.base}/drafts`);
      await page.locator('[data-draft="Proposal by Claude"]').waitFor();
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "drafts-phone-list");
      await page.goto(`${server.base}/workspaces/${draftId}/review`);
      await page.getByRole("list", { name: "By object" }).waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>(".diff-picture img");
        return img?.complete && img.naturalWidth > 0;
      });
      expect(await noSidewaysScroll(page)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "drafts-phone-review");
      const proposal = (await get<{ id: string; name: string }[]>(page, `/api/workspaces/${ids.base}/drafts`)).find(
        (d) => d.name === "Proposal by Claude",
      );
      await page.goto(`${server.base}/workspaces/${proposal?.id}`);
      await page.getByRole("region", { name: "Draft" }).getByText("2 changes").waitFor();
      expect(await noSidewaysScroll(page)).toBe(true);
      await screenshot(page, "drafts-phone-banner");
    } finally {
      await context.close();
    }
  }, 180_000);
});
