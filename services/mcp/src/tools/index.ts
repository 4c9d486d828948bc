import { getDraftOf, inWorkspace } from "@ams/model";
import { roleHas } from "@ams/shared";
import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { analysisTools } from "./analysis.ts";
import { arrangeTools } from "./arrange.ts";
import type { AnyTool, ToolCall } from "./define.ts";
import { DRAFT_TOOL_NAMES, draftTools, proposalCall, review, withNote } from "./drafts.ts";
import { elementTools } from "./elements.ts";
import { exchangeTools } from "./exchange.ts";
import { WorkspaceId } from "./fields.ts";
import { graphTools } from "./graph.ts";
import { historyTools } from "./history.ts";
import { metamodelTools } from "./metamodel.ts";
import { propertyDefinitionTools } from "./property-definitions.ts";
import { relationshipTools } from "./relationships.ts";
import { viewContentTools } from "./view-contents.ts";
import { viewTools } from "./views.ts";
import { workspaceTools } from "./workspace.ts";

/** The 37 tools of SPEC.md "MCP endpoint", those issue 14 added for assistants, and issue 23's history tools. */
const DEFINED: readonly AnyTool[] = [
  ...workspaceTools,
  ...metamodelTools,
  ...elementTools,
  ...relationshipTools,
  ...viewTools,
  ...viewContentTools,
  ...arrangeTools,
  ...propertyDefinitionTools,
  ...exchangeTools,
  ...graphTools,
  ...historyTools,
  ...analysisTools,
  ...draftTools,
];

/** Tools about the organization or the metamodel, not one workspace's model: they take no workspace_id. */
const NOT_IN_A_WORKSPACE = new Set([
  "list_workspaces",
  "activate_workspace",
  "create_workspace",
  "list_viewpoints",
  "list_metamodel_element_types",
  "get_allowed_relationships",
  "save_model",
  "list_dashboards",
]);

const WorkspaceArgument = WorkspaceId.optional().describe(
  "Workspace for this call only (default: the active one); the user's active workspace stays as it is",
);

/**
 * A model tool that also takes an optional workspace_id: the call runs on that workspace, nothing is switched.
 * Where the organization has assistants write to drafts and the caller is an assistant, it runs in the
 * conversation's draft instead (drafts.ts), and a write's answer says that its changes await review.
 */
function withWorkspaceArgument(tool: AnyTool): AnyTool {
  const write = !tool.annotations.readOnlyHint;
  return {
    ...tool,
    input: tool.input.extend({ workspace_id: WorkspaceArgument }),
    run: async (call: ToolCall, args: Record<string, unknown>) => {
      const { workspace_id, ...rest } = args as { workspace_id?: string };
      const target = workspace_id === undefined ? call : { ...call, ctx: await inWorkspace(call.ctx, workspace_id) };
      if (DRAFT_TOOL_NAMES.has(tool.name)) return tool.run(target, rest);
      const proposal = await proposalCall(target, write);
      if (!proposal) return tool.run(target, rest);
      const result = await tool.run(proposal.call, rest);
      if (!write || result.isError) return result;
      const now = await getDraftOf(proposal.call.ctx, proposal.draft.id);
      return withNote(
        result,
        `This change went into the draft '${now.name}' (workspace_id ${now.id}), not into '${now.base_name}': the ` +
          `organization has assistants propose changes. ${review(now)}`,
      );
    },
  };
}

export const TOOLS: readonly AnyTool[] = DEFINED.map((t) =>
  NOT_IN_A_WORKSPACE.has(t.name) ? t : withWorkspaceArgument(t),
);

export const TOOL_BY_NAME: ReadonlyMap<string, AnyTool> = new Map(TOOLS.map((t) => [t.name, t]));
if (TOOL_BY_NAME.size !== TOOLS.length) throw new Error("duplicate MCP tool name");

const jsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  portable(z.toJSONSchema(schema, { target: "draft-7", io })) as ListedTool["inputSchema"];

/**
 * The same schema in the spelling the most clients understand (the MCP Inspector's --strict portability check):
 * a `type` list becomes `anyOf` branches of one type each (dialects such as Gemini's take a single type), and an
 * open object's `additionalProperties: {}` becomes `true`. Validation is unchanged.
 */
function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" && Array.isArray(value) && !("anyOf" in node)) {
      out.anyOf = value.map((type) => ({ type }));
    } else if (key === "additionalProperties" && isEmptyObject(value)) {
      out[key] = true;
    } else {
      out[key] = portable(value);
    }
  }
  return out;
}

const isEmptyObject = (v: unknown) => !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0;

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

/** The tools a caller who may not write can use: the read-only ones, and switching workspace. */
const READ_TOOL_LIST: readonly ListedTool[] = TOOL_LIST.filter(
  (t) => t.annotations?.readOnlyHint || t.name === "activate_workspace",
);

/** What tools/list answers this caller: every tool to those who may write the model, the read tools to the others. */
export function toolListFor(call: ToolCall): readonly ListedTool[] {
  return call.ctx.role !== null && roleHas(call.ctx.role, "model:write") ? TOOL_LIST : READ_TOOL_LIST;
}
