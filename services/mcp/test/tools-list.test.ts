import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack } from "./support/stack.ts";
import { ADDED_TOOLS, SPEC_TOOLS } from "./support/tool-names.ts";

let stack: Stack;
let client: Client;
beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Tools" });
  client = await stack.mcpClient((await stack.apiToken(archi)).token);
});
afterAll(async () => {
  await client?.close();
  await stack?.close();
});

describe("tools/list", () => {
  test("names the 37 tools of the specification and the ones issues 14 and 23 added", async () => {
    const { tools } = await client.listTools();
    expect(SPEC_TOOLS).toHaveLength(37);
    expect(tools.map((t) => t.name).sort()).toEqual([...SPEC_TOOLS, ...ADDED_TOOLS].sort());
  });

  test("every tool has a title, a description, hints and a valid object input schema whose fields are described", async () => {
    const { tools } = await client.listTools();
    const ajv = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description!.length, tool.name).toBeGreaterThan(20);
      const a = tool.annotations!;
      expect(typeof a.readOnlyHint, tool.name).toBe("boolean");
      expect(typeof a.destructiveHint, tool.name).toBe("boolean");
      expect(typeof a.idempotentHint, tool.name).toBe("boolean");
      expect(a.openWorldHint, tool.name).toBe(false);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(() => ajv.getValidator(tool.inputSchema), tool.name).not.toThrow();
      if (tool.outputSchema) {
        expect(tool.outputSchema.type, tool.name).toBe("object");
        expect(() => ajv.getValidator(tool.outputSchema!), tool.name).not.toThrow();
        // An answer that gains a field must not fail the client's validation.
        expect(JSON.stringify(tool.outputSchema), tool.name).not.toContain('"additionalProperties":false');
      }
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });

  test("read tools are read-only; writes are not; deletes are destructive", async () => {
    const { tools } = await client.listTools();
    const hints = new Map(tools.map((t) => [t.name, t.annotations!]));
    for (const name of SPEC_TOOLS) {
      const readOnly = /^(get_|list_)/.test(name) || name === "render_view" || name === "export_model";
      expect(hints.get(name)!.readOnlyHint, name).toBe(readOnly);
      if (name.startsWith("delete_")) expect(hints.get(name)!.destructiveHint, name).toBe(true);
      if (name.startsWith("create_")) expect(hints.get(name)!.idempotentHint, name).toBe(false);
    }
  });

  test("id arguments use the *_id names", async () => {
    const { tools } = await client.listTools();
    // workspace_id (optional on every model tool) is checked in its own test below.
    const props = (name: string) =>
      Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {}).filter(
        (p) => name === "activate_workspace" || p !== "workspace_id",
      );
    expect(props("get_element")).toEqual(["element_id"]);
    expect(props("get_relationship")).toEqual(["relationship_id"]);
    expect(props("get_view")).toEqual(["view_id"]);
    expect(props("delete_node").sort()).toEqual(["expected_revision", "node_id", "view_id"]);
    expect(props("delete_connection").sort()).toEqual(["connection_id", "expected_revision", "view_id"]);
    expect(props("get_property_definition")).toEqual(["definition_id"]);
    expect(props("activate_workspace")).toEqual(["workspace_id"]);
    expect(props("list_elements")).toEqual(expect.arrayContaining(["type", "name", "limit"]));
    expect(props("import_model")).toEqual(["format", "xml", "elements", "relations", "properties"]);
  });

  test("every model tool takes an optional workspace_id; organization and metamodel tools do not", async () => {
    const { tools } = await client.listTools();
    const orgLevel = [
      "list_workspaces",
      "create_workspace",
      "list_viewpoints",
      "list_metamodel_element_types",
      "get_allowed_relationships",
      "save_model",
      "list_dashboards",
    ];
    for (const tool of tools) {
      const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
      if (tool.name === "activate_workspace") expect(schema.required).toEqual(["workspace_id"]);
      else if (orgLevel.includes(tool.name)) expect(schema.properties?.workspace_id, tool.name).toBeUndefined();
      else {
        expect(schema.properties?.workspace_id, tool.name).toBeDefined();
        expect(schema.required ?? [], tool.name).not.toContain("workspace_id");
      }
    }
    expect(tools.find((t) => t.name === "activate_workspace")!.description).toContain(
      "Switches the USER's active workspace",
    );
  });

  test("schemas use the portable spelling: one type per branch, open objects as additionalProperties: true", async () => {
    const { tools } = await client.listTools();
    const text = JSON.stringify(tools);
    expect(text).not.toMatch(/"type":\[/);
    expect(text).not.toContain('"additionalProperties":{}');
    // Nullable fields stay nullable.
    const element = tools.find((t) => t.name === "get_element")!.outputSchema as any;
    expect(element.properties.documentation.anyOf).toEqual([{ type: "string" }, { type: "null" }]);
  });
});
