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
});
afterAll(() => h.close());

const path = () => `/api/workspaces/${org.workspaceId}/colourings`;

test("an editor saves 'Criticality RAG', every reader lists it, the same name replaces it, a delete removes it", async () => {
  const saved = await org.editor.post(path(), { name: "Criticality RAG", color_by: "criticality", palette: "RAG" });
  expect(saved.status).toBe(201);
  // The property's own spelling is kept, the palette normalised.
  expect(saved.body).toMatchObject({ name: "Criticality RAG", color_by: "Criticality", palette: "rag" });
  await org.editor.post(path(), { name: "Links", color_by: "relationship_count" });
  const listed = await org.viewer.get(path());
  expect(listed.status).toBe(200);
  expect(listed.body.map((c: { name: string }) => c.name)).toEqual(["Criticality RAG", "Links"]);

  const again = await org.editor.post(path(), { name: "criticality rag", color_by: "Criticality", palette: "heat" });
  expect(again.status).toBe(201);
  const after = (await org.viewer.get(path())).body as { name: string; palette: string }[];
  expect(after.map((c) => [c.name, c.palette])).toEqual([
    ["criticality rag", "heat"],
    ["Links", null],
  ]);

  expect((await org.editor.delete(`${path()}/${again.body.id}`)).status).toBe(204);
  expect(((await org.viewer.get(path())).body as unknown[]).length).toBe(1);
  expect((await org.editor.delete(`${path()}/${again.body.id}`)).status).toBe(404);
});

test("bad input: an unknown property or palette is a 422 naming it, nothing is saved; another workspace's is a 404", async () => {
  const before = ((await org.viewer.get(path())).body as unknown[]).length;
  const unknown = await org.editor.post(path(), { name: "Risk", color_by: "Riskiness" });
  expect(unknown.status).toBe(422);
  expect(JSON.stringify(unknown.body)).toContain("color_by");
  expect(JSON.stringify(unknown.body)).toContain("Riskiness");
  const palette = await org.editor.post(path(), { name: "Risk", color_by: "Criticality", palette: "rainbow" });
  expect(palette.status).toBe(422);
  expect(JSON.stringify(palette.body)).toContain("palette");
  expect(((await org.viewer.get(path())).body as unknown[]).length).toBe(before);

  const theirs = await other.editor.post(`/api/workspaces/${other.workspaceId}/colourings`, {
    name: "Theirs",
    color_by: "relationship_count",
  });
  expect(theirs.status).toBe(201);
  expect((await org.editor.delete(`${path()}/${theirs.body.id}`)).status).toBe(404);
  expect((await org.viewer.get(`/api/workspaces/${other.workspaceId}/colourings`)).status).toBe(404);
});
