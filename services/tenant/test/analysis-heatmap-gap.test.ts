import { demoModelXml } from "@ams/model";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
let other: OrgFixture;
beforeAll(async () => {
  h = await tenantHarness();
  [org, other] = [await h.organization(), await h.organization()];
  const imported = await org.owner.post("/api/import", demoModelXml(), { "content-type": "application/xml" });
  expect(imported.status).toBe(200);
  expect(imported.body.warnings ?? []).toEqual([]);
});
afterAll(() => h.close());

/** The fill of the shape drawn for a node of the layered view showing this element. */
async function fillOf(svg: string, elementName: string) {
  const node = svg.lastIndexOf('<g class="node"', svg.indexOf(`>${elementName}<`));
  const fill = svg.indexOf('fill="', svg.indexOf('class="shape"', node)) + 6;
  return svg.slice(fill, svg.indexOf('"', fill));
}

test("the layered view coloured by Criticality: RAG colours, a legend, the stored colours unchanged", async () => {
  const plain = await org.viewer.get("/api/views/v-layered/image");
  const res = await org.viewer.get("/api/views/v-layered/image?color_by=Criticality&palette=rag");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("image/svg+xml");
  expect(res.text).toContain("Colour by: Criticality");
  for (const label of [">High<", ">Medium<", ">no value<"]) expect(res.text).toContain(label);
  expect(await fillOf(res.text, "Mainframe")).toBe("#d9352b");
  expect(await fillOf(res.text, "CRM system")).toBe("#f5c218");
  expect(await fillOf(res.text, "Customer")).toBe("#e0e0e0");
  expect(await fillOf(plain.text, "Mainframe")).not.toBe("#d9352b");
  // The view and its stored styles are as they were.
  expect((await org.viewer.get("/api/views/v-layered/image")).text).toBe(plain.text);
  const png = await org.viewer.get("/api/views/v-layered/image?format=png&scale=0.5&color_by=criticality");
  expect(png.status).toBe(200);
  expect(png.headers.get("content-type")).toBe("image/png");
});

test("metrics: relationship count and impact count, numbers in five bands with their ranges", async () => {
  const rels = await org.viewer.get("/api/views/v-layered/image?color_by=relationship_count");
  expect(rels.status).toBe(200);
  expect(rels.text).toContain("Colour by: Relationships");
  expect(rels.text).toMatch(/>\d+ to \d+(\.\d)?</);
  const impact = await org.viewer.get("/api/views/v-layered/image?color_by=impact_count&palette=blues");
  expect(impact.text).toContain("Colour by: Impact");
  // Within three relationships the Claim files service has 6 dependents (policy administration; the claims
  // administration service, the financial application; accept, valuate, the payment service), the Mainframe 4 (the
  // files service, policy administration, claims administration, financial application): a darker blue.
  const blues = ["#deebf7", "#9ecae1", "#6baed6", "#3182bd", "#08519c"];
  const shade = async (name: string) => blues.indexOf(await fillOf(impact.text, name));
  expect(await shade("Mainframe")).toBeGreaterThanOrEqual(0);
  expect(await shade("Claim files service")).toBeGreaterThan(await shade("Mainframe"));
});

test("bad input: an unknown property is a 422 naming it; a bad palette too; another workspace's view 404", async () => {
  const res = await org.viewer.get("/api/views/v-layered/image?color_by=Riskiness");
  expect(res.status).toBe(422);
  expect(res.body.detail).toContain("'Riskiness'");
  expect(res.body.errors[0].path).toBe("color_by");
  const palette = await org.viewer.get("/api/views/v-layered/image?color_by=Criticality&palette=rainbow");
  expect(palette.status).toBe(422);
  expect(palette.body.detail).toContain("rainbow");
  expect((await other.owner.get("/api/views/v-layered/image?color_by=Criticality")).status).toBe(404);
});

test("plateau gap: added, removed and kept elements and relationships, the gap, and its picture", async () => {
  const res = await org.viewer.get("/api/analysis/gap?from=e-plateau-now&to=e-plateau-2027");
  expect(res.status).toBe(200);
  const ids = (list: { id: string }[]) => list.map((e) => e.id).sort();
  expect(ids(res.body.elements.added)).toEqual(["e-portal", "e-servers"]);
  expect(ids(res.body.elements.removed)).toEqual(["e-mainframe"]);
  expect(ids(res.body.elements.kept)).toEqual(["e-crm", "e-finance", "e-policy"]);
  // Portal -> CRM and portal -> policy flows arrive with the portal; policy -> finance stays.
  expect(ids(res.body.relationships.added)).toEqual(["r-26", "r-27"]);
  expect(ids(res.body.relationships.kept)).toEqual(["r-28"]);
  expect(res.body.relationships.removed).toEqual([]);
  expect(res.body.gaps).toEqual([{ id: "e-gap-online", name: "Online claim registration" }]);
  const image = await org.viewer.get("/api/analysis/gap/image?from=e-plateau-now&to=e-plateau-2027");
  expect(image.status).toBe(200);
  expect(image.text).toContain("Colour by: Claims today to Online claims (2027)");
  expect(await fillOf(image.text, "Web portal")).toBe("#7cc47f");
  expect(await fillOf(image.text, "Mainframe")).toBe("#f08080");
  expect(await fillOf(image.text, "CRM system")).toBe("#e0e0e0");
});

test("plateau gap bad input: a non-plateau is a 422 naming it; another workspace's plateau is 404", async () => {
  const res = await org.viewer.get("/api/analysis/gap?from=e-mainframe&to=e-plateau-2027");
  expect(res.status).toBe(422);
  expect(res.body.errors[0].path).toBe("from");
  expect(res.body.detail).toContain("is a Node, not a Plateau");
  expect((await org.viewer.get("/api/analysis/gap?from=e-plateau-now")).status).toBe(422);
  expect((await other.owner.get("/api/analysis/gap?from=e-plateau-now&to=e-plateau-2027")).status).toBe(404);
});
