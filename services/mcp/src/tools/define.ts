import type { GraphProvider, RequestContext } from "@ams/model";
import type { ServiceClaims } from "@ams/shared";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/**
 * What one tool call runs with: the same RequestContext the tenant builds, the verified claims, and the graph
 * (explore, dashboards, rebuilds; absent when the deployment has no Neo4j).
 */
export type ToolCall = { ctx: RequestContext; claims: ServiceClaims; graph?: GraphProvider };

type Hints = Required<Pick<ToolAnnotations, "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint">>;

export type Tool<S extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  input: S;
  /** Shape of structuredContent; given for tools whose answer is data (lists, gets, created objects). */
  output?: z.ZodObject;
  annotations: Hints;
  run(call: ToolCall, args: z.output<S>): Promise<CallToolResult>;
};

/** A tool with its argument type erased, so tools of every shape live in one list. */
export type AnyTool = Tool<z.ZodObject>;

export const defineTool = <S extends z.ZodObject>(tool: Tool<S>): AnyTool => tool as unknown as AnyTool;

/** The model is the only world these tools touch, so openWorldHint is false everywhere. */
export const READ: Hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const CREATE: Hints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** Overwrites the fields it is given: destructive in MCP's sense, but repeating it changes nothing more. */
export const UPDATE: Hints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
export const DELETE: Hints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
/** Changes state without losing anything (selection, no-op save). */
export const SWITCH: Hints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Structured data as both structuredContent and its JSON text (for clients that read only text). */
export function data(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}
