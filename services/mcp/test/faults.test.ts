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
