import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";
import { archimateDir, readSample, sampleFiles } from "./support/samples.ts";

let h: TenantHarness;
let org: OrgFixture;
const tmp = mkdtempSync(path.join(tmpdir(), "ams-transfer-"));
beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(() => h.close());

function validates(xml: string): string {
  const file = path.join(tmp, `export-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  try {
    execFileSync("xmllint", ["--nonet", "--noout", "--schema", `${archimateDir}xsd/archimate3_with_dc.xsd`, file], {
      env: { ...process.env, XML_CATALOG_FILES: `${archimateDir}xsd/catalog.xml` },
      stdio: "pipe",
    });
    return "valid";
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err);
  }
}

const importXml = (xml: string) => org.editor.post("/api/import", xml, { "content-type": "application/xml" });

describe("import and export over HTTP", () => {
  test.each(sampleFiles())("%s imports, exports valid XML, and round-trips", async (file) => {
    const res = await importXml(readSample(file));
    expect(res.status, res.text).toBe(200);
    const exported = await org.viewer.get("/api/export");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.xml"$/);
    expect(validates(exported.text)).toBe("valid");
    expect((await importXml(exported.text)).status).toBe(200);
    expect((await org.viewer.get("/api/export")).text).toBe(exported.text);
  });

  test("a refused import leaves the previous model intact", async () => {
    await importXml(readSample("models/archi-tests/archisurance_archi-export.xml"));
    const before = (await org.viewer.get("/api/export")).text;
    const legacy = await importXml(readSample("models/legacy-v2.1/Archisurance_v2.1.xml"));
    expect(legacy.status).toBe(422);
    const broken = await importXml("<model><elements>");
    expect(broken.status).toBe(422);
    expect(broken.body.errors[0].path).toMatch(/line/);
    expect((await org.viewer.get("/api/export")).text).toBe(before);
  });

  test("re-importing our own export keeps one system property definition, still read-only", async () => {
    await importXml(readSample("models/opengroup-examples/Basic_Model_Properties.xml"));
    await importXml((await org.viewer.get("/api/export")).text);
    const defs = (await org.viewer.get("/api/property-definitions")).body.filter(
      (d: { name: string }) => d.name === "Service Plugin IconPack",
    );
    expect(defs).toHaveLength(1);
    expect(defs[0].is_system).toBe(true);
    expect((await org.owner.delete(`/api/property-definitions/${defs[0].id}`)).status).toBe(409);
  });

  test("a windows-1252 upload (as Sparx EA writes them) keeps its accented characters", async () => {
    const utf8 = readSample("models/opengroup-examples/Basic_Model.xml")
      .replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="windows-1252"?>')
      .replace(/(<element\b[^>]*>\s*<name[^>]*>)/, "$1Café ");
    const bytes = Buffer.from(utf8, "latin1");
    const res = await h.app.request("/api/import", {
      method: "POST",
      body: bytes,
      headers: {
        "content-type": "application/xml",
        "x-ams-service-token": await h.tokens.sign(
          { ...org.editor.caller, username: "e", platformAdmin: false, apiTokenId: null },
          "tenant",
        ),
      },
    });
    expect(res.status).toBe(200);
    const names = (await org.viewer.get("/api/elements")).body.map((e: { name: string }) => e.name);
    expect(names.some((n: string) => n.startsWith("Café "))).toBe(true);
  });

  test("multipart upload of the field 'file' and a viewer cannot import", async () => {
    const form = new FormData();
    form.set(
      "file",
      new Blob([readSample("models/opengroup-examples/Basic_Model.xml")], { type: "application/xml" }),
      "model.xml",
    );
    const res = await h.app.request("/api/import", {
      method: "POST",
      body: form,
      headers: {
        "x-ams-service-token": await h.tokens.sign(
          { ...org.editor.caller, username: "e", platformAdmin: false, apiTokenId: null },
          "tenant",
        ),
      },
    });
    expect(res.status).toBe(200);
    expect((await org.viewer.post("/api/import", "<x/>", { "content-type": "application/xml" })).status).toBe(403);
  });

  test("an import of another content type (text/plain: what a cross-site form can send) is 415 and changes nothing", async () => {
    await importXml(readSample("models/opengroup-examples/Basic_Model.xml"));
    const before = (await org.viewer.get("/api/elements")).body.length;
    const xml = readSample("models/archi-tests/archisurance_archi-export.xml");
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/json"]) {
      const res = await org.editor.post("/api/import", xml, { "content-type": type });
      expect(res.status, type).toBe(415);
      expect(res.body.detail).toContain("send application/xml or multipart/form-data");
    }
    expect((await org.viewer.get("/api/elements")).body.length).toBe(before);
    expect((await importXml(xml)).status).toBe(200);
    expect((await org.editor.post("/api/import", "<x/>", { "content-type": "text/xml; charset=utf-8" })).status).toBe(
      422,
    );
  });

  test("a view renders as SVG with one shape per node and one path per connection; other formats than png are refused", async () => {
    await importXml(readSample("models/archi-tests/archisurance_archi-export.xml"));
    const views = (await org.viewer.get("/api/views")).body;
    const detail = (await org.viewer.get(`/api/views/${views[0].id}`)).body;
    const res = await org.viewer.get(`/api/views/${views[0].id}/image?format=svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("image/svg+xml");
    expect(XMLValidator.validate(res.text)).toBe(true);
    const count = (nodes: { children: unknown[] }[]): number =>
      nodes.reduce((n, x) => n + 1 + count(x.children as never), 0);
    expect(res.text.match(/class="shape/g)?.length).toBe(count(detail.nodes));
    expect(res.text.match(/class="connection"/g)?.length ?? 0).toBe(detail.connections.length);
    const gif = await org.viewer.get(`/api/views/${views[0].id}/image?format=gif`);
    expect(gif.status).toBe(422);
    expect(gif.body.detail).toBe("format: 'gif' is not an image format of this service; use png or svg");
    const svgScale = await org.viewer.get(`/api/views/${views[0].id}/image?format=svg&scale=2`);
    expect(svgScale.status).toBe(422);
    expect(svgScale.body.errors[0].path).toBe("scale");
  });

  test("the ZIP export holds the XML and one SVG per view", async () => {
    await importXml(readSample("models/archi-tests/archisurance_archi-export.xml"));
    const views = (await org.viewer.get("/api/views")).body;
    const res = await h.app.request("/api/export/zip", {
      headers: {
        "x-ams-service-token": await h.tokens.sign(
          { ...org.viewer.caller, username: "v", platformAdmin: false, apiTokenId: null },
          "tenant",
        ),
      },
    });
    expect(res.status).toBe(200);
    const zipFile = path.join(tmp, "export.zip");
    writeFileSync(zipFile, Buffer.from(await res.arrayBuffer()));
    const listing = execFileSync("python3", [
      "-c",
      "import sys,zipfile;print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
      zipFile,
    ])
      .toString()
      .trim()
      .split("\n");
    expect(listing.filter((n) => n.endsWith(".xml"))).toHaveLength(1);
    expect(listing.filter((n) => n.startsWith("views/") && n.endsWith(".svg"))).toHaveLength(views.length);
  });

  test("a workspace can be created from an uploaded file", async () => {
    const form = new FormData();
    form.set("name", "From file");
    form.set("file", new Blob([readSample("models/opengroup-examples/ArchiSurance_V3.xml")]), "a.xml");
    const res = await h.app.request("/api/workspaces", {
      method: "POST",
      body: form,
      headers: {
        "x-ams-service-token": await h.tokens.sign(
          { ...org.owner.caller, username: "o", platformAdmin: false, apiTokenId: null },
          "tenant",
        ),
      },
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.import.elements).toBeGreaterThan(50);
    const refusedPath = await org.owner.post("/api/workspaces", { name: "x", path: "/etc/passwd" });
    expect(refusedPath.status).toBe(422);
    expect(refusedPath.body.errors[0].path).toBe("path");
  });

  test("a workspace from a refused file is not created at all", async () => {
    const before = (await org.viewer.get("/api/workspaces")).body.length;
    const form = new FormData();
    form.set("name", "Broken");
    form.set("file", new Blob(["<model><elements><element"]), "broken.xml");
    const res = await h.app.request("/api/workspaces", {
      method: "POST",
      body: form,
      headers: {
        "x-ams-service-token": await h.tokens.sign(
          { ...org.owner.caller, username: "o", platformAdmin: false, apiTokenId: null },
          "tenant",
        ),
      },
    });
    expect(res.status).toBe(422);
    const after = (await org.viewer.get("/api/workspaces")).body;
    expect(after).toHaveLength(before);
    expect(after.map((w: { name: string }) => w.name)).not.toContain("Broken");
  });
});

describe("parsed export keeps counts", () => {
  test("element count matches the source file", async () => {
    const xml = readSample("models/opengroup-examples/ArchiSurance_V3.xml");
    const res = await importXml(xml);
    const parser = new XMLParser({ ignoreAttributes: false });
    const src = parser.parse(xml);
    const count = ([] as unknown[]).concat(src.model.elements.element).length;
    expect(res.body.elements).toBe(count);
  });
});
