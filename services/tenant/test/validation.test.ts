import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type OrgFixture, type TenantHarness, tenantHarness } from "./support/harness.ts";

let h: TenantHarness;
let org: OrgFixture;
let other: OrgFixture;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<model xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" identifier="id-m">
  <name xml:lang="en">Rules</name>
  <elements>
    <element identifier="crm" xsi:type="ApplicationComponent"><name xml:lang="en">CRM</name>
      <properties><property propertyDefinitionRef="pd-owner"><value xml:lang="en">Ana</value></property>
      <property propertyDefinitionRef="pd-life"><value xml:lang="en">Retired</value></property></properties></element>
    <element identifier="erp" xsi:type="ApplicationComponent"><name xml:lang="en">erp system</name>
      <properties><property propertyDefinitionRef="pd-life"><value xml:lang="en">Live</value></property></properties></element>
    <element identifier="db" xsi:type="Node"><name xml:lang="en">DB server</name></element>
    <element identifier="grp" xsi:type="Grouping"><name xml:lang="en">Zone</name></element>
  </elements>
  <relationships>
    <relationship identifier="r1" xsi:type="Flow" source="crm" target="erp"/>
    <relationship identifier="r2" xsi:type="Serving" source="db" target="crm"/>
  </relationships>
  <propertyDefinitions>
    <propertyDefinition identifier="pd-owner" type="string"><name xml:lang="en">Owner</name></propertyDefinition>
    <propertyDefinition identifier="pd-life" type="string"><name xml:lang="en">Lifecycle</name></propertyDefinition>
  </propertyDefinitions>
  <views><diagrams>
    <view identifier="v" xsi:type="Diagram"><name xml:lang="en">Deep</name>
      <node identifier="n1" elementRef="grp" xsi:type="Element" x="0" y="0" w="600" h="400">
        <node identifier="n2" elementRef="db" xsi:type="Element" x="10" y="30" w="400" h="300">
          <node identifier="n3" elementRef="crm" xsi:type="Element" x="20" y="30" w="200" h="100">
            <node identifier="n4" elementRef="erp" xsi:type="Element" x="20" y="30" w="120" h="55"/>
          </node>
        </node>
      </node>
    </view>
  </diagrams></views>
</model>`;

beforeAll(async () => {
  h = await tenantHarness();
  [org, other] = [await h.organization(), await h.organization()];
  expect((await org.owner.post("/api/import", MODEL, { "content-type": "application/xml" })).status).toBe(200);
});
afterAll(() => h.close());

const rules = (o: OrgFixture) => `/api/organizations/${o.orgId}/validation-rules`;
const validate = (o: OrgFixture, body?: unknown) => o.viewer.post(`/api/workspaces/${o.workspaceId}/validate`, body);

describe("organization rules: CRUD", () => {
  test("owners create, change and delete rules; members read them; other organizations see nothing", async () => {
    const made = await org.owner.post(rules(org), {
      type: "required_property",
      element_type: "application-component",
      property: "Owner",
      severity: "error",
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      type: "required_property",
      element_type: "ApplicationComponent",
      property: "Owner",
      severity: "error",
      enabled: true,
    });
    const listed = await org.viewer.get(rules(org));
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((r: { id: string }) => r.id)).toEqual([made.body.id]);
    expect((await org.viewer.post(rules(org), { type: "max_nesting", depth: 1 })).status).toBe(403);
    expect((await org.editor.post(rules(org), { type: "max_nesting", depth: 1 })).status).toBe(403);
    const changed = await org.owner.put(`${rules(org)}/${made.body.id}`, {
      type: "required_property",
      element_type: "ApplicationComponent",
      property: "Owner",
      severity: "warning",
      enabled: false,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ severity: "warning", enabled: false });
    // Another organization's caller names this organization: not its own, so not found.
    expect((await other.owner.get(rules(org))).status).toBe(404);
    expect((await other.owner.put(`${rules(other)}/${made.body.id}`, { type: "max_nesting", depth: 1 })).status).toBe(
      404,
    );
    expect((await org.owner.delete(`${rules(org)}/${made.body.id}`)).status).toBe(204);
    expect((await org.owner.delete(`${rules(org)}/${made.body.id}`)).status).toBe(404);
    expect((await org.viewer.get(rules(org))).body.items).toEqual([]);
  });

  test("bad rules are a 422 naming what is wrong, and nothing is stored", async () => {
    const cases: [unknown, string][] = [
      [{ type: "spelling_rule" }, "unknown rule type 'spelling_rule'"],
      [
        { type: "required_property", element_type: "Applicaton", property: "Owner" },
        "unknown element type 'Applicaton'",
      ],
      [{ type: "required_property", element_type: "Node" }, "property: required for a required_property rule"],
      [{ type: "required_property", element_type: "Node", property: "Owner", propery: "x" }, "unknown field 'propery'"],
      [{ type: "max_nesting", depth: 2, pattern: "x" }, "unknown field 'pattern' for a max_nesting rule"],
      [
        { type: "forbidden_relationship", source_type: "Node", relationship_type: "Uses", target_type: "Node" },
        "unknown relationship type 'Uses'",
      ],
      [{ type: "allowed_values", element_type: "Node", property: "Lifecycle", values: [] }, "at least one"],
      [{ type: "name_pattern", element_type: "Node", pattern: "(a+)+$" }, "nested quantifier"],
      [{ type: "name_pattern", element_type: "Node", pattern: "^(\\w|\\d)*$" }, "has alternatives"],
      [{ type: "name_pattern", element_type: "Node", pattern: "(a)\\1" }, "back-reference"],
      [{ type: "name_pattern", element_type: "Node", pattern: "[" }, "not a valid regular expression"],
      [{ type: "name_pattern", element_type: "Node", pattern: "a".repeat(201) }, "at most 200"],
      [{ type: "max_nesting", depth: -1 }, "out of range"],
      [{ type: "max_nesting", depth: 2, severity: "fatal" }, "severity"],
    ];
    for (const [body, text] of cases) {
      const res = await org.owner.post(rules(org), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.body), JSON.stringify(body)).toContain(text);
    }
    expect((await org.viewer.get(rules(org))).body.items).toEqual([]);
    // Safe patterns pass: a character class repeated, a group repeated once or optional with alternatives.
    for (const pattern of ["^[A-Z][\\w -]*$", "^(?:APP|SVC)-\\d{3}$", "^(ab)+c?$"]) {
      const ok = await org.owner.post(rules(org), { type: "name_pattern", element_type: "Node", pattern });
      expect(ok.status, pattern).toBe(201);
      expect((await org.owner.delete(`${rules(org)}/${ok.body.id}`)).status).toBe(204);
    }
  });
});

describe("POST /api/workspaces/:id/validate", () => {
  test("built-ins and every kind of organization rule, each finding named; disabled rules do not run", async () => {
    const add = async (body: Record<string, unknown>) => {
      const res = await org.owner.post(rules(org), body);
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const required = await add({ type: "required_property", element_type: "ApplicationComponent", property: "owner" });
    const allowed = await add({
      type: "allowed_values",
      element_type: "ApplicationComponent",
      property: "Lifecycle",
      values: ["Plan", "Live"],
      severity: "error",
    });
    const pattern = await add({ type: "name_pattern", element_type: "ApplicationComponent", pattern: "^[A-Z]" });
    const forbidden = await add({
      type: "forbidden_relationship",
      source_type: "Node",
      relationship_type: "serving",
      target_type: "ApplicationComponent",
      severity: "info",
    });
    const nesting = await add({ type: "max_nesting", depth: 2 });
    const off = await add({ type: "required_property", element_type: "Node", property: "Owner", enabled: false });
    const res = await validate(org);
    expect(res.status).toBe(200);
    const by = (id: string) =>
      res.body.issues.filter((i: { rule_id: string }) => i.rule_id === id).map((i: { object: unknown }) => i.object);
    expect(by(required)).toEqual([{ kind: "element", id: "erp", view_id: null }]);
    expect(by(allowed)).toEqual([{ kind: "element", id: "crm", view_id: null }]);
    expect(by(pattern)).toEqual([{ kind: "element", id: "erp", view_id: null }]);
    expect(by(forbidden)).toEqual([{ kind: "relationship", id: "r2", view_id: null }]);
    expect(by(nesting)).toEqual([{ kind: "element", id: "erp", view_id: "v" }]);
    expect(by(off)).toEqual([]);
    const allowedIssue = res.body.issues.find((i: { rule_id: string }) => i.rule_id === allowed);
    expect(allowedIssue).toMatchObject({
      rule: "allowed_values",
      severity: "error",
      name: "CRM",
      message: "ApplicationComponent 'CRM' has Lifecycle 'Retired', not one of 'Plan', 'Live'",
    });
    expect(allowedIssue.fix_hint).toBeTruthy();
    // Built-ins beside them: the Node nested in a Grouping is fine, CRM in the Node has a relationship, ERP in CRM too.
    expect(res.body.issues.filter((i: { rule: string }) => i.rule === "nesting_without_relationship")).toEqual([]);
    expect(res.body.counts.total).toBe(res.body.issues.length);
    expect(res.body.issues[0].severity).toBe("error");
    // Without the organization's rules, and with documentation asked for.
    const plain = await validate(org, { organization_rules: false, include: ["documentation_missing"] });
    expect(plain.body.issues.some((i: { rule_id: string | null }) => i.rule_id !== null)).toBe(false);
    expect(plain.body.issues.filter((i: { rule: string }) => i.rule === "documentation_missing")).toHaveLength(4);
    // Other organizations' workspaces do not get these rules.
    expect((await validate(other)).body.issues).toEqual([]);
  });

  test("bad input: an unknown rule id or field is a 422; another workspace is 404", async () => {
    const res = await validate(org, { include: ["docs"] });
    expect(res.status).toBe(422);
    expect(res.text).toContain("unknown rule 'docs'");
    expect((await validate(org, { limit: 0 })).status).toBe(422);
    expect((await validate(org, { rules: [] })).status).toBe(422);
    expect((await org.viewer.post(`/api/workspaces/${other.workspaceId}/validate`)).status).toBe(404);
  });
});
