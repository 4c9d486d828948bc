import { createHash } from "node:crypto";
import { sql } from "@ams/db";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";
import { readSample } from "./support/samples.ts";

let h: TenantHarness;
let org: OrgFixture;
let other: OrgFixture;
let views: { id: string; name: string }[];

/** An anonymous GET, as the gateway forwards a share link: no service token, no cookie. */
const open = (path: string) => h.app.request(path);
const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
  other = await h.organization();
  const imported = await org.editor.post(
    "/api/import",
    readSample("models/archi-tests/archisurance_archi-export.xml"),
    { "content-type": "application/xml" },
  );
  expect(imported.status, imported.text).toBe(200);
  views = (await org.viewer.get("/api/views")).body;
});
afterAll(() => h.close());

const links = () => `/api/workspaces/${org.workspaceId}/share-links`;

describe("share links", () => {
  test("an editor shares a view: the URL shows it to anyone, only it, embeddable where the link says", async () => {
    const [view, another] = views as [{ id: string; name: string }, { id: string; name: string }];
    const created = await org.editor.post(links(), {
      scope: "view",
      view_id: view.id,
      frame_ancestors: "https://wiki.example.com",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ scope: "view", view_id: view.id, view_name: view.name, expires_at: null });
    const token = pathOf(created.body.url).split("/")[2] ?? "";
    expect(created.body.url).toMatch(/^http:\/\/localhost\/s\/[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);

    // Stored hashed: the clear token is nowhere in the table, the list never shows it.
    const [row] = await h.database.rows<{ token_hash: string }>(
      sql`select token_hash from share_links where id = ${created.body.id}`,
    );
    expect(row?.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    const listed = await org.editor.get(links());
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(token);
    expect(listed.body.map((l: { id: string }) => l.id)).toContain(created.body.id);

    const page = await open(pathOf(created.body.url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("set-cookie")).toBeNull();
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors https://wiki.example.com");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain("<svg");
    expect(html).toContain(view.name.replace(/&/g, "&amp;"));
    // Nothing else of the workspace: no links, no other view, no organization's name.
    expect(html).not.toContain("<a ");
    expect(html).not.toContain("Test org");
    const svg = await open(`${pathOf(created.body.url)}/view.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    for (const path of ["/index.html", `/views/${another.id}.html`, "/search-index.js", "/model.html"]) {
      expect((await open(`${pathOf(created.body.url)}${path}`)).status, path).toBe(404);
    }
  });

  test("a report link serves the report's files, live: a later change shows", async () => {
    const created = await org.owner.post(links(), { scope: "report" });
    expect(created.status, created.text).toBe(201);
    const base = pathOf(created.body.url);
    const entry = await open(base);
    expect(entry.status).toBe(302);
    expect(entry.headers.get("location")).toBe(`${base}/index.html`);
    const index = await open(`${base}/index.html`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const view = views.find((v) => v.name === "Layered View") as { id: string };
    const viewPage = await open(`${base}/views/${view.id}.html`);
    expect(viewPage.status).toBe(200);
    // The report's own frame shows its pages: they may be framed by the report itself.
    expect(viewPage.headers.get("content-security-policy")).toContain("frame-ancestors 'self'");
    expect(await viewPage.text()).toContain('<a href="../elements/');
    expect((await open(`${base}/report.js`)).headers.get("content-type")).toMatch(/^text\/javascript/);
    expect((await open(`${base}/nope.html`)).status).toBe(404);
    expect((await open(`${base}/elements/missing.html`)).status).toBe(404);

    const added = await org.editor.post("/api/elements", { type: "BusinessActor", name: "Added after sharing" });
    const search = await (await open(`${base}/search-index.js`)).text();
    expect(search).toContain("Added after sharing");
    expect((await open(`${base}/elements/${added.body.id}.html`)).status).toBe(200);
  });

  test("revoked or expired links answer 404, like unknown ones", async () => {
    const created = await org.editor.post(links(), { scope: "report" });
    const base = pathOf(created.body.url);
    expect((await open(`${base}/index.html`)).status).toBe(200);
    expect((await org.editor.delete(`${links()}/${created.body.id}`)).status).toBe(204);
    const gone = await open(`${base}/index.html`);
    expect(gone.status).toBe(404);
    expect(await gone.text()).not.toContain("Test org");
    expect((await open(base)).status).toBe(404);
    expect((await org.editor.delete(`${links()}/${created.body.id}`)).status).toBe(404);

    const soon = await org.editor.post(links(), {
      scope: "view",
      view_id: (views[0] as { id: string }).id,
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await open(pathOf(soon.body.url))).status).toBe(200);
    await h.database.rows(
      sql`update share_links set expires_at = now() - interval '1 second' where id = ${soon.body.id}`,
    );
    expect((await open(pathOf(soon.body.url))).status).toBe(404);
    expect((await org.editor.get(links())).body.map((l: { id: string }) => l.id)).not.toContain(soon.body.id);
    expect((await open(`/s/${"A".repeat(43)}`)).status).toBe(404);
    expect((await open("/s/short")).status).toBe(404);
  });

  test("only writers create and revoke; bad input is a 422 naming the field; no other workspace's view", async () => {
    expect((await org.viewer.post(links(), { scope: "report" })).status).toBe(403);
    const missingView = await org.editor.post(links(), { scope: "view" });
    expect(missingView.status).toBe(422);
    expect(missingView.text).toContain("view_id");
    const past = await org.editor.post(links(), { scope: "report", expires_at: "2000-01-01T00:00:00Z" });
    expect(past.status).toBe(422);
    expect(past.text).toContain("expires_at");
    const frame = await org.editor.post(links(), { scope: "report", frame_ancestors: "javascript:alert(1)" });
    expect(frame.status).toBe(422);
    expect(frame.text).toContain("frame_ancestors");
    const otherView = await other.editor.post("/api/views", { name: "Other's view" });
    const foreign = await org.editor.post(links(), { scope: "view", view_id: otherView.body.id });
    expect(foreign.status).toBe(404);
    // Another workspace's id in the path is not the authorized workspace.
    expect((await org.editor.get(`/api/workspaces/${other.workspaceId}/share-links`)).status).toBe(404);
  });
});
