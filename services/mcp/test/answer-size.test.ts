import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";

/**
 * Answer size under control (issue 14, new capability 4): every list tool is paged with a stated default and
 * maximum, and a megabyte of documentation (or a thousand long enumeration values, 100,000-character property
 * values, a dashboard's megabyte of panel queries) never makes a list answer megabytes. Checked through the official SDK client, which also checks each answer against its outputSchema.
 */
let stack: Stack;
let client: Client;
let token: string;

const MEGABYTE_DOC = "d".repeat(1_000_000);
let hub: string;
const targets: string[] = [];
const views: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Answer size" });
  token = (await stack.apiToken(archi)).token;
  client = await stack.mcpClient(token);
  await client.listTools();
  hub = (await ok("create_element", { name: "Hub", type: "ApplicationComponent", documentation: MEGABYTE_DOC })).id;
  for (let i = 0; i < 6; i++) {
    const target = await ok("create_element", {
      name: `Served ${i}`,
      type: "ApplicationComponent",
      documentation: MEGABYTE_DOC,
    });
    targets.push(target.id);
    await ok("create_relationship", {
      type: "Serving",
      source: hub,
      target: target.id,
      documentation: MEGABYTE_DOC,
    });
  }
  for (let i = 0; i < 4; i++) {
    const view = await ok("create_view", { name: `View ${i}`, documentation: MEGABYTE_DOC });
    views.push(view.id);
    await ok("create_node", { view_id: view.id, element_id: hub, x: 20, y: 20 });
  }
}, 180_000);
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
async function ok(name: string, args: Record<string, unknown> = {}) {
  const res = await call(name, args);
  if (res.isError) throw new Error(`${name}: ${textOf(res)}`);
  return res.structuredContent as any;
}
/** The bytes a client receives for one answer (the text content and structuredContent carry the same JSON). */
const size = (res: CallToolResult) => textOf(res).length;

describe("a megabyte of documentation is cut in every list answer", () => {
  test.each([
    ["list_elements", {}, "elements", 7],
    ["list_relationships", {}, "relationships", 6],
    ["list_views", {}, "views", 4],
    ["get_element_relationships", () => ({ element_id: hub }), "relationships", 6],
    ["get_element_views", () => ({ element_id: hub }), "views", 4],
  ] as const)("%s", async (tool, args, key, count) => {
    const res = await call(tool, typeof args === "function" ? args() : args);
    expect(res.isError, textOf(res)).toBeFalsy();
    // Several megabytes stored; the answer stays a few kilobytes.
    expect(size(res)).toBeLessThan(count * 1_500 + 2_000);
    const answer = res.structuredContent as any;
    expect(answer).toMatchObject({ total: count, omitted: 0 });
    expect(answer[key]).toHaveLength(count);
    for (const item of answer[key]) {
      expect(item.documentation).toHaveLength(1001);
      expect(item.documentation.endsWith("…")).toBe(true);
      expect(item.documentation_truncated).toBe(true);
    }
  });

  test("the get_* tools still give all of it", async () => {
    const relationships = await ok("get_element_relationships", { element_id: hub, limit: 1 });
    const full = await ok("get_relationship", { relationship_id: relationships.relationships[0].id });
    expect(full.documentation).toHaveLength(1_000_000);
  });
});

describe("paging", () => {
  test("get_element_relationships pages in model order; the pages put together are the whole list", async () => {
    const first = await ok("get_element_relationships", { element_id: hub, limit: 4, summary: true });
    expect(first).toMatchObject({ total: 6, omitted: 2 });
    expect(first.relationships).toHaveLength(4);
    for (const r of first.relationships) expect(Object.keys(r).sort()).toEqual(["id", "source", "target", "type"]);
    const second = await ok("get_element_relationships", { element_id: hub, limit: 4, offset: 4, summary: true });
    expect(second).toMatchObject({ total: 6, omitted: 4 });
    const targetsInOrder = [...first.relationships, ...second.relationships].map((r: { target: string }) => r.target);
    expect(targetsInOrder).toEqual(targets);
    const past = await ok("get_element_relationships", { element_id: hub, offset: 50 });
    expect(past).toMatchObject({ relationships: [], total: 6, omitted: 6 });
  });

  test("get_element_views and get_relationship_views page too", async () => {
    const page = await ok("get_element_views", { element_id: hub, limit: 3, offset: 1 });
    expect(page.views.map((v: { id: string }) => v.id)).toEqual(views.slice(1, 4));
    expect(page).toMatchObject({ total: 4, omitted: 1 });
    const rel = (await ok("get_element_relationships", { element_id: hub, limit: 1 })).relationships[0];
    expect(await ok("get_relationship_views", { relationship_id: rel.id, limit: 5 })).toEqual({
      views: [],
      total: 0,
      omitted: 0,
    });
  });

  test("list_elements pages with the filter applied before the window", async () => {
    const page = await ok("list_elements", { name: "Served", limit: 2, offset: 3, fields: ["name"] });
    expect(page.elements.map((e: { name: string }) => e.name)).toEqual(["Served 3", "Served 4"]);
    expect(page).toMatchObject({ total: 6, omitted: 4 });
  });

  test.each([
    ["list_elements", {}, 10_000],
    ["get_element_relationships", () => ({ element_id: hub }), 1000],
    ["get_element_views", () => ({ element_id: hub }), 1000],
    ["list_property_definitions", {}, 1000],
    ["list_dashboards", {}, 500],
  ] as const)("%s states its default and maximum page size, and refuses a larger one", async (tool, args, max) => {
    const listed = (await client.listTools()).tools.find((t) => t.name === tool)!;
    expect(listed.description).toMatch(/\(default [\d,]+, at most [\d,]+\)/);
    expect(listed.description).toContain(`at most ${max.toLocaleString("en")}`);
    const res = await call(tool, { ...(typeof args === "function" ? args() : args), limit: max + 1 });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^Invalid arguments for \w+: limit: /);
  });
});

test("list_property_definitions pages, and shows an enumeration's first 100 allowed values", async () => {
  const values = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, "0")}${"v".repeat(996)}`);
  const created = await ok("create_property_definition", {
    name: "Huge list",
    type: "enumeration",
    allowed_values: values,
  });
  await ok("create_property_definition", { name: "Owner" });
  const res = await call("list_property_definitions", {});
  expect(res.isError, textOf(res)).toBeFalsy();
  // A megabyte of allowed values stored; about a tenth of it listed.
  expect(size(res)).toBeLessThan(110_000);
  const listed = res.structuredContent as any;
  const huge = listed.property_definitions.find((d: { name: string }) => d.name === "Huge list");
  expect(huge.allowed_values).toEqual(values.slice(0, 100));
  expect(huge.allowed_values_truncated).toBe(true);
  expect(listed.property_definitions.find((d: { name: string }) => d.name === "Owner")).not.toHaveProperty(
    "allowed_values_truncated",
  );
  expect((await ok("get_property_definition", { definition_id: created.id })).allowed_values).toHaveLength(1000);
  const page = await ok("list_property_definitions", { limit: 1, offset: 1 });
  expect(page.property_definitions).toHaveLength(1);
  expect(page.total).toBe(listed.total);
  expect(page.omitted).toBe(listed.total - 1);
});

test("list_dashboards pages and cuts a long description", async () => {
  const description = "a".repeat(5000);
  for (const title of ["First", "Second", "Third"]) {
    const created = await stack.rest(token, "POST", "/api/dashboards", {
      title,
      description,
      parameters: [],
      panels: [],
    });
    expect(created.status, created.text).toBe(201);
  }
  const all = await ok("list_dashboards");
  const mine = all.dashboards.filter((d: { title: string }) => ["First", "Second", "Third"].includes(d.title));
  expect(mine).toHaveLength(3);
  for (const d of mine) {
    expect(d.description).toHaveLength(1001);
    expect(d.description_truncated).toBe(true);
  }
  const page = await ok("list_dashboards", { limit: 1, offset: 1 });
  expect(page.dashboards).toEqual([all.dashboards[1]]);
  expect(page).toMatchObject({ total: all.total, omitted: all.total - 1 });
});

describe("a dashboard's megabyte of panel queries stays out of list_dashboards unless asked for", () => {
  // 50 panels of 19,500 characters of Cypher each: about a megabyte a dashboard, just under REST's body limit.
  const query = (i: number) => `MATCH (n) WHERE n.name <> '${"q".repeat(19_450)}${i}' RETURN n.name AS name`;
  const heavy: string[] = [];

  beforeAll(async () => {
    for (const title of ["Heavy A", "Heavy B", "Heavy C"]) {
      const created = await stack.rest(token, "POST", "/api/dashboards", {
        title,
        description: "h".repeat(5000),
        parameters: [{ name: "limit", label: "Rows", type: "number", default: 10 }],
        panels: Array.from({ length: 50 }, (_, i) => ({
          panelInstanceId: `p${i}`,
          title: `Panel ${i}`,
          visualization: "core/table",
          query: query(i),
          layout: { x: 0, y: i, w: 6, h: 1 },
        })),
      });
      expect(created.status, created.text).toBe(201);
      heavy.push(created.body.dashboardId);
    }
  }, 120_000);

  test("by default each dashboard is a summary: kilobytes for three megabytes", async () => {
    const res = await call("list_dashboards");
    expect(res.isError, textOf(res)).toBeFalsy();
    const answer = res.structuredContent as any;
    expect(size(res)).toBeLessThan(answer.total * 1_500 + 2_000);
    const mine = answer.dashboards.filter((d: { dashboardId: string }) => heavy.includes(d.dashboardId));
    expect(mine.map((d: { title: string }) => d.title)).toEqual(["Heavy A", "Heavy B", "Heavy C"]);
    for (const d of mine) {
      expect(Object.keys(d).sort()).toEqual(
        [
          "dashboardId",
          "description",
          "description_truncated",
          "isProvisioned",
          "panelCount",
          "revision",
          "title",
          "updated_at",
        ].sort(),
      );
      expect(d).toMatchObject({ panelCount: 50, revision: 1, isProvisioned: false, description_truncated: true });
      expect(d.description).toBe(`${"h".repeat(1000)}…`);
      expect(Number.isNaN(Date.parse(d.updated_at))).toBe(false);
    }
  });

  test("fields asks for the panels, whole, one page at a time", async () => {
    const all = await ok("list_dashboards");
    const index = all.dashboards.findIndex((d: { dashboardId: string }) => d.dashboardId === heavy[1]);
    const res = await call("list_dashboards", { fields: ["panels", "parameters"], limit: 1, offset: index });
    expect(res.isError, textOf(res)).toBeFalsy();
    const [dashboard] = (res.structuredContent as any).dashboards;
    expect(Object.keys(dashboard).sort()).toEqual(["dashboardId", "panels", "parameters"]);
    expect(dashboard.dashboardId).toBe(heavy[1]);
    expect(dashboard.panels).toHaveLength(50);
    expect(dashboard.panels.map((p: { query: string }) => p.query)).toEqual(
      Array.from({ length: 50 }, (_, i) => query(i)),
    );
    expect(dashboard.parameters).toEqual([expect.objectContaining({ name: "limit", type: "number", default: 10 })]);
    expect(size(res)).toBeGreaterThan(950_000);
  });

  test("the dashboard itself still has every panel's query", async () => {
    const full = await stack.rest(token, "GET", `/api/dashboards/${heavy[0]}`);
    expect(full.status).toBe(200);
    expect(full.body.panels).toHaveLength(50);
    expect(full.body.panels[49].query).toBe(query(49));
    expect(full.body.description).toHaveLength(5000);
  });

  test("an unknown field is refused by name", async () => {
    const res = await call("list_dashboards", { fields: ["queries"] });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/^Invalid arguments for list_dashboards: fields/);
  });
});

describe("property values of 100,000 characters are cut in every list answer", () => {
  const LONG = (c: string) => c.repeat(100_000);
  let annotated: string[] = [];
  let view: string;

  beforeAll(async () => {
    await ok("create_property_definition", { name: "Notes" });
    await ok("create_property_definition", { name: "Spec" });
    await ok("create_property_definition", { name: "Team" });
    await ok("create_property_definition", { name: "Tier", type: "number" });
    const properties = { Notes: LONG("n"), Spec: LONG("s"), Team: "Sales", Tier: 2 };
    annotated = [];
    for (let i = 0; i < 4; i++)
      annotated.push((await ok("create_element", { name: `Annotated ${i}`, type: "Node", properties })).id);
    for (const target of annotated.slice(1))
      await ok("create_relationship", { type: "Association", source: annotated[0], target, properties });
    view = (await ok("create_view", { name: "Annotated view", properties })).id;
  }, 120_000);

  const expectCut = (item: any) => {
    expect(item.properties.Notes).toBe(`${"n".repeat(1000)}…`);
    expect(item.properties.Spec).toBe(`${"s".repeat(1000)}…`);
    expect(item.properties).toMatchObject({ Team: "Sales", Tier: 2 });
    expect(item.properties_truncated).toBe(true);
  };

  test.each([
    ["list_elements", () => ({ name: "Annotated" }), "elements", 4],
    ["list_relationships", () => ({ source_id: annotated[0] }), "relationships", 3],
    ["get_element_relationships", () => ({ element_id: annotated[0] }), "relationships", 3],
    ["list_views", () => ({ fields: ["name", "properties"] }), "views", 5],
  ] as const)("%s", async (tool, args, key, count) => {
    const res = await call(tool, args());
    expect(res.isError, textOf(res)).toBeFalsy();
    // 200,000 characters of property values stored per item; about 2,000 answered.
    expect(size(res)).toBeLessThan(count * 3_000 + 2_000);
    const answer = res.structuredContent as any;
    expect(answer.total).toBe(count);
    const items = tool === "list_views" ? answer[key].filter((v: { id: string }) => v.id === view) : answer[key];
    expect(items.length).toBe(tool === "list_views" ? 1 : count);
    for (const item of items) expectCut(item);
  });

  test("items whose values fit are not marked; fields without properties carry no mark", async () => {
    const plain = await ok("list_elements", { name: "Hub" });
    expect(plain.elements[0]).not.toHaveProperty("properties_truncated");
    const names = await ok("list_elements", { name: "Annotated", fields: ["name"] });
    for (const e of names.elements) expect(Object.keys(e).sort()).toEqual(["id", "name"]);
  });

  test("get_element, get_relationship and get_view give the whole values", async () => {
    const element = await ok("get_element", { element_id: annotated[2] });
    expect(element.properties).toEqual({ Notes: LONG("n"), Spec: LONG("s"), Team: "Sales", Tier: 2 });
    const rel = (await ok("list_relationships", { source_id: annotated[0], limit: 1, summary: true })).relationships[0];
    expect((await ok("get_relationship", { relationship_id: rel.id })).properties.Notes).toHaveLength(100_000);
    expect((await ok("get_view", { view_id: view })).properties.Spec).toHaveLength(100_000);
  });
});
