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

const brief = (r: { type: string; direction: string; other: { id: string }; certainty: string }) =>
  `${r.direction} ${r.type} ${r.other.id} ${r.certainty}`;

test("the Mainframe serves the policy application (certain) and maybe the claims service (potential)", async () => {
  const res = await org.viewer.get("/api/elements/e-mainframe/derived-relationships");
  expect(res.status).toBe(200);
  // Mainframe -Realization-> Claim files service -Serving-> Policy administration: structural then dependency.
  // ... -Realization-> Claims administration service: serving then structural, potential.
  // ... -Flow-> Financial application / -Access-> Claim file: serving then flow or access, not derivable; the
  // plateaus composing the Mainframe or the application: composition between a plateau and a core element does not
  // take part in derivation (B.1).
  expect(res.body.relationships.map(brief)).toEqual([
    "outgoing Serving e-policy certain",
    "outgoing Serving e-as-claims potential",
  ]);
  const [serving] = res.body.relationships;
  expect(serving.chain.map((s: { relationship_id: string }) => s.relationship_id)).toEqual(["r-32", "r-33"]);
  expect(serving.derived).toBe(true);
  expect(serving.rules).toEqual(["DR3"]);
  expect(serving.source).toBe("e-mainframe");
  expect(serving.in_model).toBe(false);
  expect(serving.target).toEqual({
    id: "e-policy",
    type: "ApplicationComponent",
    name: "Policy administration",
    layer: "Application",
  });
  const onlyTarget = await org.viewer.get("/api/elements/e-mainframe/derived-relationships?target=e-as-claims");
  expect(onlyTarget.body.relationships.map(brief)).toEqual(["outgoing Serving e-as-claims potential"]);
  const short = await org.viewer.get("/api/elements/e-mainframe/derived-relationships?max_length=2");
  expect(short.body.relationships.map(brief)).toEqual(["outgoing Serving e-policy certain"]);
});

test("chains walked against a relationship: what serves a sub-process serves Handle claim (incoming, DR4)", async () => {
  const res = await org.viewer.get("/api/elements/e-handle/derived-relationships?target=e-as-customer");
  expect(res.status).toBe(200);
  // Handle claim -Composition-> Register <-Serving- Customer administration service: a dependency into the part of
  // a structural relationship holds for the whole: the service serves Handle claim, certainly.
  expect(res.body.relationships.map(brief)).toEqual(["incoming Serving e-as-customer certain"]);
  const [serving] = res.body.relationships;
  expect(serving.source).toBe("e-as-customer");
  expect(serving.target.id).toBe("e-handle");
  expect(serving.rules).toEqual(["DR4"]);
  expect(serving.chain.map((s: { relationship_id: string }) => s.relationship_id)).toEqual(["r-5", "r-17"]);
  // Three relationships: the CRM system realizes that service (DR4 then DR3): it serves Handle claim too.
  const crm = await org.viewer.get("/api/elements/e-handle/derived-relationships?target=e-crm");
  expect(crm.body.relationships.map(brief)).toEqual(["incoming Serving e-crm certain"]);
  expect(crm.body.relationships[0].rules).toEqual(["DR4", "DR3"]);
  // Walked from the other end, the same relationship is outgoing.
  const fromService = await org.viewer.get("/api/elements/e-as-customer/derived-relationships?target=e-handle");
  expect(fromService.body.relationships.map(brief)).toContain("outgoing Serving e-handle certain");
});

test("derived relationships are not stored; one added explicitly is then in the model (either direction)", async () => {
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
  const incoming = await org.editor.post("/api/relationships", {
    type: "Serving",
    source: "e-as-customer",
    target: "e-handle",
  });
  expect(incoming.status).toBe(201);
  const marked = await org.viewer.get("/api/elements/e-handle/derived-relationships?target=e-as-customer");
  expect(marked.body.relationships[0].in_model).toBe(true);
  await org.editor.delete(`/api/relationships/${incoming.body.id}`);
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
