import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack, textOf } from "./support/stack.ts";

/** Issue 24: MCP tools that update or delete an object take expected_revision, as REST takes If-Match. */
let stack: Stack;
let client: Client;
beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Concurrency" });
  client = await stack.mcpClient((await stack.apiToken(archi)).token);
  await client.listTools();
});
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

test("a stale expected_revision is a tool error carrying the current object; the current one writes", async () => {
  const created = (await call("create_element", { name: "CRM", type: "ApplicationComponent" })).structuredContent as {
    id: string;
    revision: number;
  };
  const theirs = (await call("update_element", { element_id: created.id, documentation: "Theirs" }))
    .structuredContent as { revision: number };
  const stale = await call("update_element", {
    element_id: created.id,
    name: "Mine",
    expected_revision: created.revision,
  });
  expect(stale.isError).toBe(true);
  expect(textOf(stale)).toContain(`it is at revision ${theirs.revision}`);
  expect(textOf(stale)).toContain('"documentation":"Theirs"');
  const problem = stale._meta?.["ams/problem"] as { code: string; status: number; current: Record<string, unknown> };
  expect(problem).toMatchObject({ code: "PRECONDITION_FAILED", status: 412 });
  expect(problem.current).toMatchObject({ id: created.id, name: "CRM", documentation: "Theirs" });

  const staleDelete = await call("delete_element", { element_id: created.id, expected_revision: created.revision });
  expect(staleDelete.isError).toBe(true);
  const merged = await call("update_element", {
    element_id: created.id,
    name: "Mine",
    expected_revision: theirs.revision,
  });
  expect(merged.isError).toBeFalsy();
  expect(merged.structuredContent).toMatchObject({ name: "Mine", documentation: "Theirs" });
  const deleted = await call("delete_element", {
    element_id: created.id,
    expected_revision: (merged.structuredContent as { revision: number }).revision,
  });
  expect(deleted.isError).toBeFalsy();
});

test("every tool that updates or deletes one object declares expected_revision", async () => {
  const { tools } = await client.listTools();
  const writers = [
    "update_element",
    "delete_element",
    "update_relationship",
    "delete_relationship",
    "update_view",
    "delete_view",
    "update_node",
    "delete_node",
    "update_connection",
    "delete_connection",
    "update_property_definition",
    "delete_property_definition",
  ];
  for (const name of writers) {
    const tool = tools.find((t) => t.name === name);
    expect(Object.keys(tool?.inputSchema.properties ?? {}), name).toContain("expected_revision");
  }
});
