import { afterAll, beforeAll, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

// Security finding 14: a PNG is at most 16 megapixels (64-megapixel pictures without a bound let six requests
// exhaust a tenant's memory). The bound on concurrent drawings is tested where they are drawn:
// packages/model/test/render/drawing-slots.test.ts.

let h: TenantHarness;
let org: OrgFixture;
let viewId: string;

beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
  const crm = (await org.editor.post("/api/elements", { name: "CRM", type: "ApplicationComponent" })).body.id;
  const far = (await org.editor.post("/api/elements", { name: "Far away", type: "ApplicationComponent" })).body.id;
  viewId = (await org.editor.post("/api/views", { name: "Wide" })).body.id;
  await org.editor.post(`/api/views/${viewId}/nodes`, { element_id: crm, x: 0, y: 0, w: 120, h: 55 });
  await org.editor.post(`/api/views/${viewId}/nodes`, { element_id: far, x: 2880, y: 1945, w: 120, h: 55 });
});
afterAll(() => h.close());

const png = (scale: number) => org.viewer.get(`/api/views/${viewId}/image?format=png&scale=${scale}`);

test("a picture over 16 megapixels is 422 naming the limit and the largest scale that fits", async () => {
  const svg = await org.viewer.get(`/api/views/${viewId}/image?format=svg`);
  const [, w, h] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg.text) ?? [];
  expect(Number(w) * Number(h)).toBeLessThan(16_000_000 / 2);
  // Scale 2 is about 24 megapixels: under the old 64-megapixel cap, over the new one.
  const res = await png(2);
  expect(res.status).toBe(422);
  expect(res.body.detail).toMatch(/would exceed 16,000,000 pixels \(use scale 1\.\d+ or less, or svg\)/);
  expect(res.body.errors[0].path).toBe("scale");
});
