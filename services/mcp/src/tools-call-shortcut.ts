import type { Logger } from "@ams/shared";
import { CallToolRequestSchema, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { callTool } from "./tools/call.ts";
import type { ToolCall } from "./tools/define.ts";
import { TOOL_BY_NAME } from "./tools/index.ts";
import type { PlainRequest } from "./tools-list-shortcut.ts";

/**
 * tools/call is most of what an assistant sends. Through the SDK every call builds an McpServer with its prompts and
 * resources, a transport, validates the message against the SDK's JSON-RPC schemas and, when the server is closed,
 * aborts the finished call's AbortController (an AbortError with its stack): about as much CPU as the tool itself
 * for a read such as get_element. Nothing of that is per user, and none of it changes the answer, so a plain call
 * of a known tool (name and arguments, no _meta or task) is handed to the very handler the SDK would call
 * (callTool) and its result wrapped as the SDK's transport wraps it: `{"result":…,"jsonrpc":"2.0","id":…}`, or for a
 * thrown error the SDK's error object. The caller's authorization is the request's own (authenticate in app.ts, from
 * the gateway's token), as on the SDK's path; a test holds the two answers byte for byte equal.
 *
 * Anything else (an unknown tool, arguments that are not an object, _meta, a task) goes the SDK's way, whose
 * answer is the reference.
 */
export async function toolsCallShortcut(
  message: PlainRequest,
  call: ToolCall,
  log: Logger,
): Promise<Response | undefined> {
  if (message.method !== "tools/call" || message.params === undefined) return undefined;
  if (Object.keys(message.params).some((k) => k !== "name" && k !== "arguments")) return undefined;
  // The params as the SDK's handler sees them (server.ts checks them with this schema too).
  const parsed = CallToolRequestSchema.shape.params.safeParse(message.params);
  if (!parsed.success || !TOOL_BY_NAME.has(parsed.data.name)) return undefined;
  let body: string | Buffer<ArrayBuffer>;
  try {
    const result = await callTool(call, parsed.data.name, parsed.data.arguments, log);
    body = Buffer.concat([serializedResult(result), Buffer.from(JSON.stringify(message.id)), SUFFIX]);
  } catch (err) {
    body = JSON.stringify({ jsonrpc: "2.0", id: message.id, error: errorObject(err) });
  }
  return new Response(body, { status: 200, headers: { "Content-Type": "application/json" } });
}

/**
 * A result's answer as UTF-8 bytes up to the id (`{"result":…,"jsonrpc":"2.0","id":`), kept as long as the result
 * object lives. A tool answers the same object only for what it remembers: render_view for a remembered picture
 * (tools/views.ts), whose ~900 KB answer (the PNG in base64) cost a JSON.stringify and a UTF-8 encoding on every
 * call of an unchanged view. The tool still runs in full for every call (capability, workspace, the revision read,
 * the plugin icons' check: whatever decides what this caller may see); only the serialization of the object it
 * returns is reused. A result made for one call is collected with its entry.
 */
const serializedResults = new WeakMap<object, Buffer>();
const SUFFIX = Buffer.from("}");
function serializedResult(result: object): Buffer {
  let bytes = serializedResults.get(result);
  if (bytes === undefined) {
    bytes = Buffer.from(`{"result":${JSON.stringify(result)},"jsonrpc":"2.0","id":`);
    serializedResults.set(result, bytes);
  }
  return bytes;
}

/** A thrown error as the SDK's Protocol words it in its JSON-RPC error answer. */
function errorObject(err: unknown) {
  const e = err as { code?: unknown; message?: string; data?: unknown };
  return {
    code: Number.isSafeInteger(e.code) ? (e.code as number) : ErrorCode.InternalError,
    message: e.message ?? "Internal error",
    ...(e.data !== undefined && { data: e.data }),
  };
}
