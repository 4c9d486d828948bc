import { sql } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { importModel, type RequestContext, type ValidationResult, validateModel, withChange } from "../../src/index.ts";
import { ownerContext } from "../history/support.ts";

/** Each built-in rule on a small hand-made model: what it finds and, as importantly, what it leaves alone. */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("ams_validation");
});
afterAll(async () => database?.drop());

const NS = 'xmlns="http://www.opengroup.org/xsd/archimate/3.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';
const el = (id: string, type: string, name: string, extra = "") =>
  `<element identifier="${id}" xsi:type="${type}"><name xml:lang="en">${name}</name>${extra}</element>`;
const rel = (id: string, type: string, s: string, t: string) =>
  `<relationship identifier="${id}" xsi:type="${type}" source="${s}" target="${t}"/>`;
const node = (id: string, ref: string, inner = "") =>
  `<node identifier="${id}" elementRef="${ref}" xsi:type="Element" x="10" y="10" w="120" h="55">${inner}</node>`;
const conn = (id: string, ref: string, s: string, t: string) =>
  `<connection identifier="${id}" relationshipRef="${ref}" xsi:type="Relationship" source="${s}" target="${t}"/>`;
const view = (id: string, name: string, body: string, viewpoint = "") =>
  `<view identifier="${id}" xsi:type="Diagram"${viewpoint ? ` viewpoint="${viewpoint}"` : ""}><name xml:lang="en">${name}</name>${body}</view>`;

function model(parts: { elements: string[]; relationships?: string[]; views?: string[]; defs?: string }) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<model ${NS} identifier="id-m"><name xml:lang="en">M</name>
<elements>${parts.elements.join("")}</elements>
${parts.relationships?.length ? `<relationships>${parts.relationships.join("")}</relationships>` : ""}
${parts.defs ?? ""}
${parts.views?.length ? `<views><diagrams>${parts.views.join("")}</diagrams></views>` : ""}
</model>`;
}

/** A raw write in a change group: the state an older import or a bypassing writer left behind. */
async function raw(ctx: RequestContext, statement: ReturnType<typeof sql>) {
  await withChange(ctx, { summary: "test" }, (tx) => database.rows(statement, tx));
}

async function load(xml: string): Promise<RequestContext> {
  const ctx = await ownerContext(database);
  await importModel({ ctx, input: { xml } });
  return ctx;
}

const of = (result: ValidationResult, rule: string) =>
  result.issues.filter((i) => i.rule === rule).map((i) => ({ id: i.object.id, view: i.object.view_id }));

describe("built-in rules", () => {
  test("a clean model has no issues", async () => {
    const ctx = await load(
      model({
        elements: [el("a", "ApplicationComponent", "CRM"), el("b", "ApplicationService", "Customer data")],
        relationships: [rel("r", "Realization", "a", "b")],
        views: [view("v", "Apps", node("na", "a") + node("nb", "b") + conn("c", "r", "na", "nb"))],
      }),
    );
    const result = await validateModel({ ctx });
    expect(result.issues).toEqual([]);
    expect(result.counts).toEqual({ error: 0, warning: 0, info: 0, total: 0 });
    expect(result.rules.map((r) => r.rule)).not.toContain("documentation_missing");
  });

  test("relationship not allowed by the 3.1 table (as an old import leaves it); allowed ones pass", async () => {
    const ctx = await load(
      model({
        elements: [
          el("a", "ApplicationComponent", "CRM"),
          el("p", "BusinessProcess", "Sell"),
          el("x", "DataObject", "Order"),
          el("l", "Node", "Server"),
        ],
        relationships: [rel("ok", "Serving", "a", "p"), rel("bad", "Association", "x", "l")],
      }),
    );
    // The import refuses nothing it can read; an older one wrote this: a Composition of a process in a component.
    await raw(
      ctx,
      sql`insert into relationships (workspace_id, id, ord, type, source_id, target_id) values
          (${ctx.workspaceId}, 'old', 99, 'Composition', 'a', 'p')`,
    );
    await raw(
      ctx,
      sql`update relationships set type = 'Serving' where workspace_id = ${ctx.workspaceId} and id = 'bad'`,
    );
    const result = await validateModel({ ctx });
    const issues = result.issues.filter((i) => i.rule === "relationship_not_allowed");
    expect(issues.map((i) => i.object.id).sort()).toEqual(["bad", "old"]);
    expect(issues[0]).toMatchObject({ severity: "error", object: { kind: "relationship" } });
    expect(issues.find((i) => i.object.id === "old")?.message).toContain(
      "Composition relationship from ApplicationComponent 'CRM' to BusinessProcess 'Sell'",
    );
    expect(result.counts.error).toBe(2);
  });

  test("element on no view, relationship on no view, empty view", async () => {
    const ctx = await load(
      model({
        elements: [el("a", "ApplicationComponent", "CRM"), el("b", "ApplicationComponent", "ERP")],
        relationships: [rel("r", "Flow", "a", "b")],
        views: [view("v", "Only CRM", node("na", "a")), view("empty", "Nothing yet", "")],
      }),
    );
    const result = await validateModel({ ctx });
    expect(of(result, "element_on_no_view")).toEqual([{ id: "b", view: null }]);
    expect(of(result, "relationship_on_no_view")).toEqual([{ id: "r", view: null }]);
    expect(of(result, "empty_view")).toEqual([{ id: "empty", view: "empty" }]);
    expect(result.issues.find((i) => i.rule === "empty_view")?.message).toBe("View 'Nothing yet' is empty");
  });

  test("a relationship shown by nesting is on a view, either way round; one whose ends are only side by side is not", async () => {
    const ctx = await load(
      model({
        elements: [
          el("srv", "Node", "Server"),
          el("db", "SystemSoftware", "DBMS"),
          el("fn", "ApplicationFunction", "Billing"),
          el("app", "ApplicationComponent", "ERP"),
          el("crm", "ApplicationComponent", "CRM"),
        ],
        relationships: [
          rel("comp", "Composition", "srv", "db"),
          // Nested the other way: the function's node holds the component's.
          rel("assign", "Assignment", "app", "fn"),
          rel("flow", "Flow", "app", "crm"),
        ],
        views: [
          view(
            "v",
            "Nested",
            node("nsrv", "srv", node("ndb", "db")) + node("nfn", "fn", node("napp", "app")) + node("ncrm", "crm"),
          ),
        ],
      }),
    );
    const result = await validateModel({ ctx });
    expect(of(result, "relationship_on_no_view")).toEqual([{ id: "flow", view: null }]);
    expect(of(result, "nesting_without_relationship")).toEqual([]);
  });

  test("view referencing a missing object: a connection whose end is not on its view", async () => {
    const ctx = await load(
      model({
        elements: [el("a", "ApplicationComponent", "CRM"), el("b", "ApplicationComponent", "ERP")],
        relationships: [rel("r", "Flow", "a", "b")],
        views: [view("v", "Flows", node("na", "a") + node("nb", "b") + conn("c", "r", "na", "nb"))],
      }),
    );
    expect(of(await validateModel({ ctx }), "missing_reference")).toEqual([]);
    // A writer that bypassed the model layer left the connection pointing at a node that is gone.
    await raw(ctx, sql`update connections set target_id = 'gone' where workspace_id = ${ctx.workspaceId}`);
    const result = await validateModel({ ctx });
    expect(of(result, "missing_reference")).toEqual([{ id: "c", view: "v" }]);
    expect(result.issues[0]).toMatchObject({
      rule: "missing_reference",
      severity: "error",
      object: { kind: "connection" },
    });
    expect(result.issues[0]?.message).toContain("'gone'");
  });

  test("duplicate elements: same type and normalised name; another type or name is no duplicate", async () => {
    const ctx = await load(
      model({
        elements: [
          el("a", "ApplicationComponent", "Customer  Portal"),
          el("b", "ApplicationComponent", "customer portal "),
          el("c", "ApplicationService", "Customer Portal"),
          el("d", "ApplicationComponent", "Customer Portals"),
        ],
      }),
    );
    const result = await validateModel({ ctx });
    expect(of(result, "duplicate_element")).toEqual([{ id: "b", view: null }]);
    expect(result.issues.find((i) => i.rule === "duplicate_element")?.message).toContain("(a)");
  });

  test("junction misuse: mixed relationship types, only incoming; a proper junction passes", async () => {
    const ctx = await load(
      model({
        elements: [
          el("a", "BusinessProcess", "A"),
          el("b", "BusinessProcess", "B"),
          el("c", "BusinessProcess", "C"),
          el("good", "AndJunction", ""),
          el("mixed", "OrJunction", ""),
          el("sink", "AndJunction", ""),
        ],
        relationships: [
          rel("g1", "Triggering", "a", "good"),
          rel("g2", "Triggering", "good", "b"),
          rel("m1", "Triggering", "a", "mixed"),
          rel("m2", "Flow", "mixed", "c"),
          rel("s1", "Triggering", "b", "sink"),
        ],
      }),
    );
    const result = await validateModel({ ctx });
    expect(of(result, "junction_mixed_types")).toEqual([{ id: "mixed", view: null }]);
    expect(result.issues.find((i) => i.rule === "junction_mixed_types")?.message).toContain("Flow, Triggering");
    expect(of(result, "junction_one_sided")).toEqual([{ id: "sink", view: null }]);
    expect(result.issues.find((i) => i.rule === "junction_one_sided")?.message).toContain("only incoming");
  });

  test("nesting without a relationship; nesting with one (either direction) passes", async () => {
    const ctx = await load(
      model({
        elements: [
          el("sys", "ApplicationComponent", "System"),
          el("part", "ApplicationComponent", "Part"),
          el("stray", "ApplicationComponent", "Stray"),
        ],
        relationships: [rel("r", "Composition", "sys", "part")],
        views: [view("v", "Nesting", node("ns", "sys", node("np", "part") + node("nx", "stray")))],
      }),
    );
    const result = await validateModel({ ctx });
    expect(of(result, "nesting_without_relationship")).toEqual([{ id: "stray", view: "v" }]);
    expect(result.issues.find((i) => i.rule === "nesting_without_relationship")?.message).toBe(
      "ApplicationComponent 'Stray' is nested in ApplicationComponent 'System' on view 'Nesting', but no relationship joins them",
    );
  });

  test("element not allowed by the view's viewpoint", async () => {
    const ctx = await load(
      model({
        elements: [el("a", "ApplicationComponent", "CRM"), el("n", "Node", "Server")],
        views: [view("v", "Apps", node("na", "a") + node("nn", "n"), "Application Cooperation")],
      }),
    );
    const result = await validateModel({ ctx });
    expect(of(result, "element_not_in_viewpoint")).toEqual([{ id: "n", view: "v" }]);
  });

  test("unused property definitions; documentation missing only when asked for", async () => {
    const defs = `<propertyDefinitions>
      <propertyDefinition identifier="pd-owner" type="string"><name xml:lang="en">Owner</name></propertyDefinition>
      <propertyDefinition identifier="pd-cost" type="number"><name xml:lang="en">Cost</name></propertyDefinition>
    </propertyDefinitions>`;
    const owned = `<properties><property propertyDefinitionRef="pd-owner"><value xml:lang="en">Ana</value></property></properties>`;
    const ctx = await load(
      model({
        elements: [
          el("a", "ApplicationComponent", "CRM", owned),
          `<element identifier="b" xsi:type="ApplicationComponent"><name xml:lang="en">ERP</name><documentation xml:lang="en">Books</documentation></element>`,
        ],
        defs,
      }),
    );
    const plain = await validateModel({ ctx });
    expect(of(plain, "unused_property_definition")).toEqual([{ id: "pd-cost", view: null }]);
    expect(of(plain, "documentation_missing")).toEqual([]);
    const asked = await validateModel({ ctx, input: { include: ["documentation_missing"] } });
    expect(of(asked, "documentation_missing")).toEqual([{ id: "a", view: null }]);
    const less = await validateModel({ ctx, input: { exclude: ["element_on_no_view"] } });
    expect(of(less, "element_on_no_view")).toEqual([]);
    await expect(validateModel({ ctx, input: { include: ["spelling"] } })).rejects.toMatchObject({
      code: "VALIDATION",
      message: expect.stringContaining("unknown rule 'spelling'"),
    });
  });

  test("issues come errors first, are cut at the limit and counted in full", async () => {
    const elements = Array.from({ length: 28 }, (_, i) => el(`e${i}`, "Node", `N${i}`));
    elements.push(el("x", "DataObject", "Order"), el("l", "Node", "Server"));
    const ctx = await load(model({ elements, relationships: [rel("bad", "Association", "x", "l")] }));
    await raw(ctx, sql`update relationships set type = 'Serving' where workspace_id = ${ctx.workspaceId}`);
    const result = await validateModel({ ctx, input: { limit: 5 } });
    expect(result.issues).toHaveLength(5);
    expect(result.truncated).toBe(true);
    expect(result.issues[0]?.severity).toBe("error");
    expect(result.counts).toMatchObject({ error: 1, warning: 31, total: 32 });
  });
});
