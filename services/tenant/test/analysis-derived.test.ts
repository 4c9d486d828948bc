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

const brief = (r: { type: string; target: { id: string }; certainty: string }) =>
  `${r.type} ${r.target.id} ${r.certainty}`;

test("the Mainframe serves the policy application (certain) and maybe the claims service (potential)", async () => {
  const res = await org.viewer.get("/api/elements/e-mainframe/derived-relationships");
  expect(res.status).toBe(200);
  // Mainframe -Realization-> Claim files service -Serving-> Policy administration: structural then dependency.
  // ... -Realization-> Claims administration service: serving then structural, potential.
  // ... -Flow-> Financial application / -Access-> Claim file: serving then flow or access, not derivable.
  expect(res.body.relationships.map(brief)).toEqual(["Serving e-policy certain", "Serving e-as-claims potential"]);
  const [serving] = res.body.relationships;
  expect(serving.chain.map((s: { relationship_id: string }) => s.relationship_id)).toEqual(["r-32", "r-33"]);
  expect(serving.derived).toBe(true);
  expect(serving.in_model).toBe(false);
  expect(serving.target).toEqual({
    id: "e-policy",
    type: "ApplicationComponent",
    name: "Policy administration",
    layer: "Application",
  });
  const onlyTarget = await org.viewer.get("/api/elements/e-mainframe/derived-relationships?target=e-as-claims");
  expect(onlyTarget.body.relationships.map(brief)).toEqual(["Serving e-as-claims potential"]);
  const short = await org.viewer.get("/api/elements/e-mainframe/derived-relationships?max_length=2");
  expect(short.body.relationships.map(brief)).toEqual(["Serving e-policy certain"]);
});

test("derived relationships are not stored; one added explicitly is then in the model", async () => {
  const before = (await org.viewer.get("/api/relationships")).body.length;
  await org.viewer.get("/api/elements/e-mainframe/derived-relationships");
  expect((await org.viewer.get("/api/relationships")).body.length).toBe(before);
  const added = await org.editor.post("/api/relationships", {
    type: "Serving",
    source: "e-mainframe",
    target: "e-policy",
  });
  expect(added.status).toBe(201);
  const res = await org.viewer.get("/api/elements/e-mainframe/derived-relationships?target=e-policy");
  expect(res.body.relationships[0].in_model).toBe(true);
  await org.editor.delete(`/api/relationships/${added.body.id}`);
});

test("bad input: chain length outside 2..4 is 422; another workspace's element or target is 404", async () => {
  for (const length of ["1", "5"]) {
    const res = await org.viewer.get(`/api/elements/e-mainframe/derived-relationships?max_length=${length}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].path).toBe("query.max_length");
  }
  expect((await other.owner.get("/api/elements/e-mainframe/derived-relationships")).status).toBe(404);
  const missingTarget = await org.viewer.get("/api/elements/e-mainframe/derived-relationships?target=e-nowhere");
  expect(missingTarget.status).toBe(404);
  expect(missingTarget.body.detail).toContain("e-nowhere");
});
