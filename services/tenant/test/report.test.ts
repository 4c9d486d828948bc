import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVICE_TOKEN_HEADER } from "@ams/shared/http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";
import { readSample } from "./support/samples.ts";

let h: TenantHarness;
let org: OrgFixture;
const tmp = mkdtempSync(path.join(tmpdir(), "ams-report-"));

const HOSTILE = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quotes"`;
const USER_URL = "https://intranet.example/wiki?a=1&b=2";

/** Every file under dir, as paths relative to it. */
function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full, base) : [path.relative(base, full)];
  });
}

/** GET /api/export?format=html as a viewer, unpacked into a fresh folder. */
async function unpackedReport(): Promise<{ dir: string; res: Response }> {
  const caller = org.viewer.caller;
  const token = await h.tokens.sign(
    {
      userId: caller.userId,
      username: caller.userId,
      organizationId: caller.organizationId,
      workspaceId: caller.workspaceId,
      role: caller.role,
      platformAdmin: false,
      apiTokenId: null,
    },
    "tenant",
  );
  const res = await h.app.request("/api/export?format=html", { headers: { [SERVICE_TOKEN_HEADER]: token } });
  const dir = mkdtempSync(path.join(tmp, "site-"));
  const zip = path.join(dir, "..", `${path.basename(dir)}.zip`);
  writeFileSync(zip, Buffer.from(await res.clone().arrayBuffer()));
  execFileSync("python3", ["-c", "import sys,zipfile;zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])", zip, dir]);
  return { dir, res };
}

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
  const imported = await org.editor.post(
    "/api/import",
    readSample("models/archi-tests/archisurance_archi-export.xml"),
    { "content-type": "application/xml" },
  );
  expect(imported.status, imported.text).toBe(200);
});
afterAll(() => h.close());

describe("the HTML report (GET /api/export?format=html)", () => {
  test("a ZIP of a static site: the tree, a page per view, element and relationship, the search index", async () => {
    const hostile = await org.editor.post("/api/elements", {
      type: "ApplicationComponent",
      name: HOSTILE,
      documentation: `See ${USER_URL} </div><script>alert(2)</script>`,
    });
    expect(hostile.status, hostile.text).toBe(201);
    const elements = (await org.viewer.get("/api/elements")).body;
    const target = elements.find((e: { type: string }) => e.type === "ApplicationService");
    const rel = await org.editor.post("/api/relationships", {
      type: "Realization",
      source: hostile.body.id,
      target: target.id,
    });
    expect(rel.status, rel.text).toBe(201);
    const view = await org.editor.post("/api/views", { name: `View ${HOSTILE}` });
    const placed = await org.editor.post(`/api/views/${view.body.id}/elements`, {
      element_ids: [hostile.body.id, target.id],
    });
    expect(placed.status, placed.text).toBe(201);

    const { dir, res } = await unpackedReport();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename=".+ report\.zip"$/);
    const files = filesUnder(dir);
    const views = (await org.viewer.get("/api/views")).body;
    const relationships = (await org.viewer.get("/api/relationships")).body;
    expect(files).toEqual(expect.arrayContaining(["index.html", "model.html", "search-index.js", "report.js"]));
    expect(files.filter((f) => f.startsWith("views/"))).toHaveLength(views.length);
    expect(files.filter((f) => f.startsWith("elements/"))).toHaveLength(elements.length);
    expect(files.filter((f) => f.startsWith("relationships/"))).toHaveLength(relationships.length);

    // Offline: no file names a URL but the one the user wrote (escaped, as text).
    for (const file of files) {
      const text = readFileSync(path.join(dir, file), "utf8").replaceAll(USER_URL.replace("&", "&amp;"), "");
      expect(text.match(/https?:\/\/[^\s"'<)]*/g), file).toBeNull();
      // No markup of the user's: their <script> and <img> appear escaped, never as tags.
      expect(text).not.toContain("<script>alert");
      expect(text).not.toContain("<img src=x");
    }

    // The tree holds the model's folders; the element's page has what Archi's report shows.
    const index = readFileSync(path.join(dir, "index.html"), "utf8");
    expect(index).toContain("<summary>Business</summary>");
    expect(index).toContain(`href="#/elements/${encodeURIComponent(hostile.body.id)}"`);
    expect(index).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    const page = readFileSync(
      path.join(
        dir,
        "elements",
        `${hostile.body.id.replace(/[^A-Za-z0-9-]/g, (c: string) => `_${c.charCodeAt(0).toString(16)}_`)}.html`,
      ),
      "utf8",
    );
    expect(page).toContain("<h2>Documentation</h2>");
    expect(page).toContain("See https://intranet.example/wiki?a=1&amp;b=2 &lt;/div&gt;&lt;script&gt;");
    expect(page).toContain("<h3>Outgoing</h3>");
    expect(page).toContain(`href="../elements/${target.id}.html"`);
    expect(page).toContain("<h2>Appears in views</h2>");
    expect(page).toContain(`href="../views/${view.body.id}.html"`);

    // The model's page shows the model's own properties (Archisurance has two).
    const modelPage = readFileSync(path.join(dir, "model.html"), "utf8");
    expect(modelPage).toContain("<h2>Properties</h2>");
    expect(modelPage).toContain('<tr><th scope="row">Property1</th><td>Value of Property 1</td></tr>');

    // The view's SVG links its elements to their pages.
    const viewPage = readFileSync(path.join(dir, "views", `${view.body.id}.html`), "utf8");
    expect(viewPage).toContain("<svg");
    expect(viewPage).toContain(`<a href="../elements/${target.id}.html"><g class="node"`);

    // The search index is a script: the user's "<" cannot end it.
    const search = readFileSync(path.join(dir, "search-index.js"), "utf8");
    expect(search.startsWith("window.REPORT_INDEX=")).toBe(true);
    expect(search).not.toContain("</script");
    const items = JSON.parse(search.slice("window.REPORT_INDEX=".length).replace(/;\s*$/, ""));
    expect(items).toContainEqual([hostile.body.id, "elements", HOSTILE, "ApplicationComponent"]);
  });

  test("a format it does not know is a 422 naming it; an unknown version is a 404", async () => {
    const bad = await org.viewer.get("/api/export?format=pdf");
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("format");
    const unknownVersion = await org.viewer.get("/api/export?format=html&version=nope");
    expect(unknownVersion.status).toBe(404);
  });
});
