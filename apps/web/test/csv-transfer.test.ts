import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readZip } from "../../../packages/model/src/transfer/read-zip.ts";
import { seriousViolations } from "./support/axe.ts";
import { launchChromium, screenshot } from "./support/browser.ts";
import { type RunningServer, startServer } from "./support/server.ts";
import { signedIn } from "./support/users.ts";

/** The modeler's Import and Export menus with Archi's CSV files: what the dialog offers, says and leaves behind. */

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
  ({ context, page } = await signedIn(browser, server.base, "archi"));
}, 240_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

type Element = {
  id: string;
  type: string;
  name: string;
  documentation: string | null;
  properties: Record<string, unknown>;
};

async function rest<T>(path: string): Promise<T> {
  const res = await page.request.get(`${server.base}${path}`);
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

const file = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

const ELEMENTS = `"ID","Type","Name","Documentation","Specialization"
"m1","ArchimateModel","Claims from a spreadsheet","",""
"csv-clerk","BusinessActor","Claims clerk","Handles ""simple"" claims
by phone",""
"csv-crm","ApplicationComponent","CRM","",""
`;
const RELATIONS = `"ID","Type","Name","Documentation","Source","Target","Specialization"
"csv-uses","ServingRelationship","","","csv-crm","csv-clerk",""
`;
const PROPERTIES = `"ID","Key","Value"
"csv-crm","Owner","IT"
`;

describe("Archi CSV in the modeler", () => {
  test("Import… → Archi CSV brings the three files in; a refused file names its row and changes nothing", async () => {
    const created = await page.request.post(`${server.base}/api/workspaces`, {
      headers: { origin: server.base },
      data: { name: "From Archi CSV" },
    });
    const ws = (await created.json()) as { id: string };
    await page.goto(`${server.base}/workspaces/${ws.id}`);
    await page.locator(".empty-work").waitFor();

    await page.getByRole("button", { name: "Import…" }).click();
    const dialog = page.getByRole("dialog", { name: "Import an Open Exchange file" });
    await dialog.getByLabel(/^Archi CSV/).check();
    const csvDialog = page.getByRole("dialog", { name: "Import Archi CSV files" });
    await csvDialog.getByText("a row whose ID exists updates that element or relationship").waitFor();

    // A formula cell first: refused, with file, row and column, and nothing imported.
    await csvDialog
      .getByLabel("Archi CSV files or ZIP")
      .setInputFiles([
        file(
          "elements.csv",
          `"ID","Type","Name","Documentation","Specialization"\n"x","BusinessActor","=HYPERLINK(""http://x"")","",""`,
        ),
      ]);
    await csvDialog.getByRole("button", { name: "Import and update" }).click();
    const error = csvDialog.getByText(/elements\.csv row 2 \(line 2\), column Name/);
    await error.waitFor();
    expect(await error.textContent()).toMatch(/looks like a spreadsheet formula/);
    expect(await csvDialog.textContent()).toContain("Nothing was changed");
    expect(await seriousViolations(page), "CSV import error").toEqual([]);
    await screenshot(page, "csv-import-refused");
    expect(await rest<Element[]>("/api/elements")).toEqual([]);

    await csvDialog
      .getByLabel("Archi CSV files or ZIP")
      .setInputFiles([
        file("claims-elements.csv", ELEMENTS),
        file("claims-relations.csv", RELATIONS),
        file("claims-properties.csv", PROPERTIES),
      ]);
    await screenshot(page, "csv-import-dialog");
    await csvDialog.getByRole("button", { name: "Import and update" }).click();
    await page.getByText("The CSV files were imported: 3 created, 0 updated.").waitFor();
    await expect.poll(() => page.getByRole("tab", { name: /^Model/ }).textContent()).toBe("Model (2)");
    await page.getByText("Claims clerk").first().waitFor();
    await screenshot(page, "csv-imported");
    const elements = await rest<Element[]>("/api/elements");
    expect(elements.find((e) => e.id === "csv-clerk")?.documentation).toBe('Handles "simple" claims\nby phone');
    expect(elements.find((e) => e.id === "csv-crm")?.properties).toEqual({ Owner: "IT" });
  }, 120_000);

  test("Export CSV downloads a ZIP of Archi's three files", async () => {
    await page.getByRole("button", { name: "Export", exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\(CSV\)\.zip$/);
    const path = join(tmpdir(), `ams-csv-${Date.now()}.zip`);
    await download.saveAs(path);
    const entries = readZip(new Uint8Array(readFileSync(path)), { maxTotalBytes: 1e7 });
    const files = Object.fromEntries(entries.map((e) => [e.name, new TextDecoder().decode(e.bytes)]));
    expect(Object.keys(files).sort()).toEqual(["elements.csv", "properties.csv", "relations.csv"]);
    expect(files["elements.csv"]).toContain(
      `"csv-clerk","BusinessActor","Claims clerk","Handles ""simple"" claims\nby phone",""`,
    );
    expect(files["relations.csv"]).toContain(`"csv-uses","ServingRelationship","","","csv-crm","csv-clerk",""`);
    expect(files["properties.csv"]).toContain(`"csv-crm","Owner","IT"`);
  }, 60_000);
});
