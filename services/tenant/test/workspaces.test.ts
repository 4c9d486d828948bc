import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
beforeAll(async () => {
  h = await tenantHarness();
  org = await h.organization();
});
afterAll(() => h.close());

describe("workspaces and model info", () => {
  test("list, rename, activate and delete within the organization", async () => {
    const created = await org.owner.post("/api/workspaces", { name: "Second", description: "d" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Second", description: "d", organization_id: org.orgId, active: true });
    const list = (await org.viewer.get("/api/workspaces")).body;
    expect(list.map((w: { name: string }) => w.name)).toEqual(["Main", "Second"]);
    const renamed = await org.editor.put(`/api/workspaces/${created.body.id}`, { name: "Renamed" });
    expect(renamed.body.name).toBe("Renamed");
    expect((await org.viewer.post(`/api/workspaces/${created.body.id}/activate`)).status).toBe(200);
    expect((await org.viewer.delete(`/api/workspaces/${created.body.id}`)).status).toBe(403);
    expect((await org.editor.delete(`/api/workspaces/${created.body.id}`)).status).toBe(204);
    expect((await org.viewer.get("/api/workspaces")).body).toHaveLength(1);
  });

  test("another organization's workspace answers 404", async () => {
    const other = await h.organization();
    expect((await org.owner.put(`/api/workspaces/${other.workspaceId}`, { name: "x" })).status).toBe(404);
    expect((await org.owner.post(`/api/workspaces/${other.workspaceId}/activate`)).status).toBe(404);
    expect((await org.owner.put("/api/workspaces/not-a-uuid", { name: "x" })).status).toBe(404);
  });

  test("GET /api reports the workspace, model and counts; save is a no-op", async () => {
    await org.editor.post("/api/elements", { name: "E", type: "Node" });
    const info = await org.viewer.get("/api");
    expect(info.status).toBe(200);
    expect(info.body.workspace.id).toBe(org.workspaceId);
    expect(info.body.counts.elements).toBe(1);
    expect(info.body.counts.property_definitions).toBe(1);
    expect((await org.editor.post("/api/save")).status).toBe(200);
    expect((await org.viewer.post("/api/save")).status).toBe(403);
  });
});
