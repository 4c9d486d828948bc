import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";

/** Issue 14's faults as an assistant meets them through the official SDK client. */
let stack: Stack;
let client: Client;
let token: string;

beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Faults" });
  token = (await stack.apiToken(archi)).token;
  client = await stack.mcpClient(token);
  await client.listTools();
});
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe("error texts point to what an MCP client can call", () => {
  test("an unknown viewpoint names list_viewpoints over MCP and GET /api/viewpoints over REST", async () => {
    const mcp = await call("create_view", { name: "V", viewpoint: "Nonsense" });
    expect(mcp.isError).toBe(true);
    expect(textOf(mcp)).toBe("viewpoint: 'Nonsense' is not an ArchiMate 3.1 viewpoint (see list_viewpoints)");
    const rest = await stack.rest(token, "POST", "/api/views", { name: "V", viewpoint: "Nonsense" });
    expect(rest.body.detail).toBe("viewpoint: 'Nonsense' is not an ArchiMate 3.1 viewpoint (see GET /api/viewpoints)");
  });

  test("an unknown element type and an unknown property name point to MCP tools, never to /api", async () => {
    const type = await call("create_element", { name: "X", type: "Gizmo" });
    expect(textOf(type)).toContain("(see list_metamodel_element_types, or resource archimate://layers)");
    const prop = await call("create_element", { name: "X", type: "Node", properties: { Nope: "1" } });
    expect(textOf(prop)).toContain("no property definition named 'Nope'");
    expect(textOf(prop)).toContain("(see list_property_definitions)");
    for (const r of [type, prop]) expect(textOf(r)).not.toContain("/api/");
  });
});

test("thousands of unknown argument keys get a short tool error naming the first ones", async () => {
  const args: Record<string, unknown> = { name: "X", type: "Node" };
  for (let i = 0; i < 5000; i++) args[`junk_${i}`] = i;
  const res = await call("create_element", args);
  expect(res.isError).toBe(true);
  expect(textOf(res).length).toBeLessThan(1000);
  expect(textOf(res)).toContain("5,000 unrecognized keys (junk_0, junk_1");
  expect(textOf(res)).toContain("and 4,980 more");
});

test("import_model of a file without the ArchiMate namespace says what it found", async () => {
  const res = await call("import_model", {
    xml: '<?xml version="1.0"?>\n<model identifier="m"><name>x</name></model>',
  });
  expect(res.isError).toBe(true);
  expect(textOf(res)).toContain("found <model> without a namespace (xmlns is missing)");
});

test("enumeration definitions over MCP: allowed values listed, a value outside refused", async () => {
  const def = await call("create_property_definition", {
    name: "Lifecycle",
    type: "enumeration",
    allowed_values: ["Plan", "Run"],
  });
  expect(def.structuredContent).toMatchObject({ type: "enumeration", allowed_values: ["Plan", "Run"] });
  const bad = await call("create_element", {
    name: "CRM",
    type: "ApplicationComponent",
    properties: { Lifecycle: "x" },
  });
  expect(bad.isError).toBe(true);
  expect(textOf(bad)).toContain("must be one of 'Plan', 'Run'");
  const ok = await call("create_element", {
    name: "CRM",
    type: "ApplicationComponent",
    properties: { Lifecycle: "Run" },
  });
  expect(ok.isError).toBeFalsy();
  const listed = (await call("list_property_definitions", {})).structuredContent as {
    property_definitions: { name: string; allowed_values: string[] | null }[];
  };
  expect(listed.property_definitions.find((d) => d.name === "Lifecycle")?.allowed_values).toEqual(["Plan", "Run"]);
});

describe("text PostgreSQL cannot store is a tool error naming the field, and nothing is stored", () => {
  const NUL = "\u0000";
  const nul = "must not contain the NUL character (\\u0000)";
  const surrogate = "must be valid Unicode text (it holds an unpaired surrogate such as \\udfff)";
  test.each([
    ["a NUL in an element name", "create_element", { name: `CR${NUL}M`, type: "ApplicationComponent" }, "name", nul],
    ["a lone surrogate in an element name", "create_element", { name: "CR\udfffM", type: "Node" }, "name", surrogate],
    ["a NUL in a list filter", "list_elements", { name: `a${NUL}b` }, "name", nul],
    ["a lone surrogate in a list filter", "list_relationships", { type: "\ud800" }, "type", surrogate],
    ["a NUL in an identifier", "get_element", { element_id: `id-${NUL}` }, "element_id", nul],
    ["a lone surrogate in an identifier", "delete_element", { element_id: "id-\udfff" }, "element_id", surrogate],
    ["a NUL in a workspace_id", "list_elements", { workspace_id: `ws${NUL}` }, "workspace_id", nul],
    [
      "a NUL in a property key",
      "create_element",
      { name: "X", type: "Node", properties: { [`Own${NUL}er`]: "me" } },
      "properties.Own\\u0000er",
      nul,
    ],
    [
      "a lone surrogate in a view's documentation",
      "create_view",
      { name: "Fine", documentation: "half \ud83d of an emoji" },
      "documentation",
      surrogate,
    ],
  ])("%s", async (_what, tool, args, path, message) => {
    const counts = async () => ((await call("get_model_info", {})).structuredContent as { counts: unknown }).counts;
    const before = await counts();
    const res = await call(tool, args);
    expect(res.isError, textOf(res)).toBe(true);
    expect(textOf(res)).toBe(`${path}: ${message}`);
    expect(res._meta?.["ams/problem"]).toEqual({ code: "VALIDATION", status: 422, errors: [{ path, message }] });
    expect(await counts()).toEqual(before);
  });
});

type Box = { id: string; x: number; y: number; w: number; h: number; children?: Box[] };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (child: Box, parent: Box) =>
  child.x >= parent.x &&
  child.y >= parent.y &&
  child.x + child.w <= parent.x + parent.w &&
  child.y + child.h <= parent.y + parent.h;

test("create_node with parent_id and no x/y lands inside the parent, clear of the nodes placed by hand", async () => {
  const ok = async (name: string, args: Record<string, unknown>) => {
    const res = await call(name, args);
    expect(res.isError, `${name}: ${textOf(res)}`).toBeFalsy();
    return res.structuredContent as Box & Record<string, unknown>;
  };
  const view = await ok("create_view", { name: "Nesting" });
  const element = async (name: string) => (await ok("create_element", { name, type: "SystemSoftware" })).id;
  const host = await ok("create_element", { name: "Host", type: "Node" });
  const parent = await ok("create_node", { view_id: view.id, element_id: host.id, x: 300, y: 200, w: 420, h: 260 });
  // By hand: two children where a grid would put its first cells, and a top-level node where the parent would grow.
  const byHand = [
    await ok("create_node", {
      view_id: view.id,
      element_id: await element("By hand 1"),
      parent_id: parent.id,
      x: 312,
      y: 225,
    }),
    await ok("create_node", {
      view_id: view.id,
      element_id: await element("By hand 2"),
      parent_id: parent.id,
      x: 450,
      y: 225,
    }),
  ];
  const topLevel = await ok("create_node", { view_id: view.id, element_id: await element("Beside"), x: 20, y: 20 });
  const placed: Box[] = [];
  for (let i = 0; i < 6; i++) {
    placed.push(
      await ok("create_node", { view_id: view.id, element_id: await element(`Placed ${i}`), parent_id: parent.id }),
    );
  }
  const detail = (await call("get_view", { view_id: view.id })).structuredContent as { nodes: Box[] };
  const finalParent = detail.nodes.find((n) => n.id === parent.id)!;
  expect(finalParent.children!.map((c) => c.id).sort()).toEqual([...byHand, ...placed].map((n) => n.id).sort());
  for (const node of placed) {
    expect(inside(node, finalParent), `${JSON.stringify(node)} inside ${JSON.stringify(finalParent)}`).toBe(true);
    for (const other of [...byHand, ...placed].filter((o) => o.id !== node.id))
      expect(overlaps(node, other), `${JSON.stringify(node)} over ${JSON.stringify(other)}`).toBe(false);
  }
  // A top-level node without a position stays clear of both the hand-placed one and the parent.
  const loose = await ok("create_node", { view_id: view.id, element_id: await element("Loose") });
  for (const other of [topLevel, finalParent]) expect(overlaps(loose, other)).toBe(false);
});
