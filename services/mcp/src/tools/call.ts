import { AppError, findUnstorableText, type Logger, toProblem, unstorableTextError, zodFieldErrors } from "@ams/shared";
import { type CallToolResult, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ToolCall } from "./define.ts";
import { TOOL_BY_NAME } from "./index.ts";

/**
 * Runs one tools/call. An unknown tool is a protocol error (JSON-RPC -32602). Arguments that do not fit the tool's
 * schema, and everything the verbs refuse (AppError), are tool error results whose text is exactly the `detail`
 * REST would answer, so that a model can correct itself; anything else is logged and reported without its internal
 * message.
 */
export async function callTool(call: ToolCall, name: string, args: unknown, log: Logger): Promise<CallToolResult> {
  const tool = TOOL_BY_NAME.get(name);
  if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool '${name}'; tools/list names the tools`);
  const unstorable = findUnstorableText(args);
  if (unstorable) return refusal(unstorableTextError(unstorable));
  const parsed = tool.input.safeParse(args ?? {});
  // Arguments that do not fit a known tool are the model's to correct: a tool error naming each field (as MCP
  // 2025-11-25 asks), not a protocol error. An unknown tool above stays a JSON-RPC error.
  if (!parsed.success) return refusal(invalidArguments(name, parsed.error));
  try {
    return await tool.run(call, parsed.data);
  } catch (err) {
    if (toProblem(err).status === 500) log.error("tool failed", { tool: name, err });
    return refusal(err);
  }
}

/** A refusal as a tool error result whose text is exactly the `detail` REST would answer. */
function refusal(err: unknown): CallToolResult {
  const problem = toProblem(err, "mcp");
  // A stale expected_revision: the object as it is now, in the text (for a model that reads only text) and as data.
  const current = err instanceof AppError ? err.current : undefined;
  return {
    content: [
      {
        type: "text",
        text: current ? `${problem.detail}\nCurrent object: ${JSON.stringify(current)}` : problem.detail,
      },
    ],
    isError: true,
    // The REST status and code, so a client can tell "forbidden" from "not found" without parsing text.
    _meta: {
      "ams/problem": {
        code: problem.code,
        status: problem.status,
        ...(problem.errors ? { errors: problem.errors } : {}),
        ...(current ? { current } : {}),
      },
    },
  };
}

/** Field paths and messages as REST's 422 words them, in the message and as data. */
function invalidArguments(tool: string, error: z.ZodError): AppError {
  const errors = zodFieldErrors(error);
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join("; ");
  return new AppError("VALIDATION", `Invalid arguments for ${tool}: ${detail}`, { errors });
}

/**
 * A JSON-RPC error for the SDK to send: its code, data and the bare message. (The SDK's McpError prefixes its message
 * with "MCP error <code>:", which the client then prefixes again.)
 */
export function protocolError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, data });
}
