import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestNeo4j, type TestNeo4j } from "../../../packages/graph/test/support/neo4j.ts";
import { archimateDir } from "./support/samples.ts";
import { type GraphTenant, graphTenant } from "./support/tenant-graph.ts";

const archisurance = readFileSync(`${archimateDir}models/archi-tests/archisurance_archi-export.xml`, "utf8");
const PROVISIONED = ["application-landscape", "element-neighbourhood", "model-statistics"];

let n4j: TestNeo4j;
let h: GraphTenant;
let org: Awaited<ReturnType<GraphTenant["organization"]>>;

beforeAll(async () => {
  n4j = await startTestNeo4j();
  h = await graphTenant(n4j);
  org = await h.organization(archisurance);
  expect((await org.editor.post("/api/export/neo4j")).status).toBe(200);
}, 400_000);

afterAll(async () => {
  await h?.close();
  await n4j?.stop();
});

const definition = (title: string) => ({
  title,
  description: "Components by name",
  parameters: [{ name: "prefix", label: "Name starts with", type: "string", default: "" }],
  panels: [
    {
      panelInstanceId: "components",
      title: "Components",
      visualization: "core/table",
      query: "MATCH (c:ApplicationComponent) WHERE c.name STARTS WITH $prefix RETURN c.name AS name ORDER BY name",
      layout: { x: 0, y: 0, w: 6, h: 4 },
    },
  ],
});

describe("provisioned dashboards on archisurance", () => {
  test("are listed for every organization, with isProvisioned", async () => {
    const list = await org.viewer.get("/api/dashboards");
    expect(list.status).toBe(200);
    expect(
      list.body
        .filter((d: any) => d.isProvisioned)
        .map((d: any) => d.dashboardId)
        .sort(),
    ).toEqual(PROVISIONED);
  });

  test("every panel of every provisioned dashboard executes", async () => {
    const element = await org.viewer.get("/api/elements?type=ApplicationComponent");
    const params: Record<string, string> = {
      "element-neighbourhood": `?element=${encodeURIComponent(element.body[0].id)}`,
    };
    for (const id of PROVISIONED) {
      const dashboard = await org.viewer.get(`/api/dashboards/${id}`);
      expect(dashboard.status).toBe(200);
      for (const panel of dashboard.body.panels) {
        const res = await org.viewer.get(`/api/dashboards/${id}/panels/${panel.panelInstanceId}${params[id] ?? ""}`);
        expect(res.status, `${id}/${panel.panelInstanceId}: ${res.text}`).toBe(200);
        expect(res.body.visualization).toBe(panel.visualization);
        // Every archisurance element is on some view, so only that panel may come back empty.
        if (panel.panelInstanceId !== "not-in-views")
          expect(res.body.result.rows.length, `${id}/${panel.panelInstanceId} returned no rows`).toBeGreaterThan(0);
        if (panel.visualization === "core/graph") expect(res.body.result.relationships.length).toBeGreaterThan(0);
        if (panel.visualization === "core/metric") expect(res.body.value).toBeGreaterThan(0);
      }
    }
    const byLayer = await org.viewer.get("/api/dashboards/model-statistics/panels/by-layer");
    expect(byLayer.body.result.rows.map((r: any[]) => r[0])).toEqual(
      expect.arrayContaining(["Business", "Application", "Technology"]),
    );
    const appTypes = await org.viewer.get("/api/dashboards/model-statistics/panels/types-in-layer?layer=Application");
    expect(appTypes.body.parameters).toEqual({ layer: "Application" });
    expect(appTypes.body.result.rows.map((r: any[]) => r[0])).toContain("ApplicationComponent");
  });

  test("panel parameters are checked against the definition", async () => {
    const panel = "/api/dashboards/element-neighbourhood/panels/related";
    const missing = await org.viewer.get(panel);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([{ path: "element", message: "is required" }]);
    expect((await org.viewer.get(`${panel}?element=nope`)).body.detail).toMatch(/no element 'nope'/);
    expect((await org.viewer.get(`${panel}?element=x&depth=3`)).body.errors[0].path).toBe("depth");
    expect((await org.viewer.get("/api/dashboards/model-statistics/panels/types-in-layer?layer=Nope")).status).toBe(
      422,
    );
    expect((await org.viewer.get("/api/dashboards/model-statistics/panels/nope")).status).toBe(404);
  });

  test("provisioned dashboards cannot be changed through the API", async () => {
    expect((await org.editor.put("/api/dashboards/model-statistics", definition("Mine"))).status).toBe(409);
    expect((await org.editor.delete("/api/dashboards/model-statistics")).status).toBe(409);
  });
});

describe("dashboards of an organization", () => {
  test("revisions: create is 1, PUT makes n+1, GET the latest, earlier ones by ?revision=", async () => {
    const created = await org.editor.post("/api/dashboards", definition("Landscape v1"));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ revision: 1, title: "Landscape v1", isProvisioned: false });
    const id = created.body.dashboardId;
    const updated = await org.owner.put(`/api/dashboards/${id}`, definition("Landscape v2"));
    expect(updated.body).toMatchObject({ revision: 2, title: "Landscape v2" });
    expect((await org.viewer.get(`/api/dashboards/${id}`)).body).toMatchObject({ revision: 2, title: "Landscape v2" });
    expect((await org.viewer.get(`/api/dashboards/${id}?revision=1`)).body).toMatchObject({
      revision: 1,
      title: "Landscape v1",
    });
    expect((await org.viewer.get(`/api/dashboards/${id}?revision=3`)).status).toBe(404);
    const run = await org.viewer.get(`/api/dashboards/${id}/panels/components?prefix=Home`);
    expect(run.status).toBe(200);
    expect(run.body.result.rows.every((r: string[]) => r[0]?.startsWith("Home") === true)).toBe(true);
  });

  test("soft delete: gone from the listing and GET, kept in the admin listing", async () => {
    const { body } = await org.editor.post("/api/dashboards", definition("Short-lived"));
    expect((await org.editor.delete(`/api/dashboards/${body.dashboardId}`)).status).toBe(204);
    expect((await org.viewer.get(`/api/dashboards/${body.dashboardId}`)).status).toBe(404);
    expect((await org.viewer.get("/api/dashboards")).body.map((d: any) => d.dashboardId)).not.toContain(
      body.dashboardId,
    );
    const admin = await org.editor.get("/api/dashboards/admin");
    expect(admin.status).toBe(200);
    expect(admin.body.find((d: any) => d.dashboardId === body.dashboardId)).toMatchObject({
      deleted: true,
      isProvisioned: false,
    });
    expect(admin.body.filter((d: any) => d.isProvisioned)).toHaveLength(3);
  });

  test("viewers read only; another organization sees nothing", async () => {
    const { body } = await org.editor.post("/api/dashboards", definition("Private"));
    expect((await org.viewer.post("/api/dashboards", definition("Nope"))).status).toBe(403);
    expect((await org.viewer.put(`/api/dashboards/${body.dashboardId}`, definition("Nope"))).status).toBe(403);
    expect((await org.viewer.delete(`/api/dashboards/${body.dashboardId}`)).status).toBe(403);
    expect((await org.viewer.get("/api/dashboards/admin")).status).toBe(403);
    const other = await h.organization();
    expect((await other.owner.get(`/api/dashboards/${body.dashboardId}`)).status).toBe(404);
    expect((await other.owner.put(`/api/dashboards/${body.dashboardId}`, definition("Taken"))).status).toBe(404);
    expect((await other.owner.get("/api/dashboards")).body.map((d: any) => d.dashboardId)).not.toContain(
      body.dashboardId,
    );
  });

  test("the list pages with limit and offset in its order; without them it is the whole list", async () => {
    const fresh = await h.organization();
    for (const title of ["Beta", "Alpha", "Gamma"])
      expect((await fresh.editor.post("/api/dashboards", definition(title))).status).toBe(201);
    const whole = await fresh.viewer.get("/api/dashboards");
    expect(whole.status).toBe(200);
    const titles = whole.body.map((d: any) => d.title);
    expect(titles.slice(3)).toEqual(["Alpha", "Beta", "Gamma"]);
    const first = await fresh.viewer.get("/api/dashboards?limit=4");
    const second = await fresh.viewer.get("/api/dashboards?limit=4&offset=4");
    expect(first.body).toHaveLength(4);
    expect(second.body.map((d: any) => d.title)).toEqual(["Beta", "Gamma"]);
    expect([...first.body, ...second.body]).toEqual(whole.body);
    expect((await fresh.viewer.get("/api/dashboards?offset=6")).body).toEqual([]);
    const bad = await fresh.viewer.get("/api/dashboards?limit=0&offset=-1");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(["query.limit", "query.offset"]);
    const doc = await fresh.viewer.get("/api/openapi.json");
    const params = doc.body.paths["/api/dashboards"].get.parameters.map((p: any) => `${p.in}.${p.name}`);
    expect(params.sort()).toEqual(["query.limit", "query.offset"]);
  });

  test("definitions are validated: schema, grid, bindings, duplicate ids and the Cypher itself", async () => {
    const bad = definition("Bad");
    bad.panels.push({ ...bad.panels[0]!, layout: { x: 8, y: 0, w: 6, h: 2 } });
    (bad.panels[1] as any).query = "MATCH (n) DETACH DELETE n";
    const res = await org.editor.post("/api/dashboards", bad);
    expect(res.status).toBe(422);
    const paths = res.body.errors.map((e: any) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["panels.1.panelInstanceId", "panels.1.layout", "panels.1.query"]));
    const shape = await org.editor.post("/api/dashboards", {
      title: "x",
      panels: [{ panelInstanceId: "p", visualization: "core/pie" }],
    });
    expect(shape.status).toBe(422);
    const unbound = definition("Unbound") as any;
    unbound.panels[0].bindings = { prefix: "missing" };
    expect((await org.editor.post("/api/dashboards", unbound)).body.errors[0].path).toBe("panels.0.bindings.prefix");
  });

  test("the JSON schema and the visualization catalogue are published", async () => {
    const schema = await org.viewer.get("/api/dashboards/schema");
    expect(schema.status).toBe(200);
    expect(schema.body.properties.panels.items.properties.visualization.enum).toEqual([
      "core/graph",
      "core/table",
      "core/metric",
    ]);
    expect(schema.body.required).toContain("title");
    const vis = await org.viewer.get("/api/panel-visualizations");
    expect(vis.body.map((v: any) => v.id)).toEqual(["core/graph", "core/table", "core/metric"]);
  });
});
