import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { AnyTool } from "./define.ts";
import { elementTools } from "./elements.ts";
import { exchangeTools } from "./exchange.ts";
import { propertyDefinitionTools } from "./property-definitions.ts";
import { relationshipTools } from "./relationships.ts";
import { viewContentTools } from "./view-contents.ts";
import { viewTools } from "./views.ts";
import { workspaceTools } from "./workspace.ts";

/** The 37 tools of SPEC.md "MCP endpoint". */
export const TOOLS: readonly AnyTool[] = [
  ...workspaceTools,
  ...elementTools,
  ...relationshipTools,
  ...viewTools,
  ...viewContentTools,
  ...propertyDefinitionTools,
  ...exchangeTools,
];

export const TOOL_BY_NAME: ReadonlyMap<string, AnyTool> = new Map(TOOLS.map((t) => [t.name, t]));
if (TOOL_BY_NAME.size !== TOOLS.length) throw new Error("duplicate MCP tool name");

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { target: "draft-7", io }) as ListedTool["inputSchema"];

/**
 * Clients validate structuredContent against outputSchema, so an answer that gains a field must not break them:
 * output objects admit further properties (inputs stay strict, as in REST).
 */
function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "additionalProperties" && value === false) continue;
    out[key] = openObjects(value);
  }
  return out;
}

/**
 * The tools/list answer, converted from the zod schemas once per process instead of on every request (each
 * request builds a fresh server).
 */
export const TOOL_LIST: readonly ListedTool[] = TOOLS.map((t) => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: jsonSchema(t.input, "input"),
  ...(t.output ? { outputSchema: openObjects(jsonSchema(t.output, "output")) as ListedTool["outputSchema"] } : {}),
  annotations: { title: t.title, ...t.annotations },
}));
