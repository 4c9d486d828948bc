import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCall } from "./tools/define.ts";
import { toolListFor } from "./tools/index.ts";

/**
 * tools/list is what every MCP client sends first and often, and its answer is the largest static thing the server
 * sends (every tool with its input and output schemas, about 100 KB of JSON). Built through the SDK it costs a server, a
 * transport and a JSON.stringify of the whole list per request; here the two possible answers (writer, reader) are
 * serialized once, and a request that is exactly a tools/list call the SDK would accept gets that text.
 *
 * Everything else, including any tools/list request the SDK would refuse or word differently, goes the SDK's way: the
 * conditions below are the SDK transport's own checks for a stateless JSON-response POST, and a test holds the two
 * answers byte for byte equal.
 */

/** A tools/list request is a few hundred bytes; larger bodies are never read here. */
const SHORTCUT_BODY_LIMIT = 16 * 1024;

const serialized = new Map<readonly unknown[], string>();
function serializedList(list: readonly unknown[]): string {
  let text = serialized.get(list);
  if (text === undefined) {
    text = JSON.stringify({ tools: list });
    serialized.set(list, text);
  }
  return text;
}

type Shortcut = { response: Response } | { request: Request };

/**
 * The answer to a plain tools/list request, or the request to hand to the SDK (rebuilt when its body was read).
 * Only a request with a Content-Length is read: one without a length could be any size, and the SDK limits those.
 */
export async function toolsListShortcut(req: Request, call: ToolCall): Promise<Shortcut> {
  const length = Number(req.headers.get("content-length") ?? Number.NaN);
  if (!(length >= 0 && length <= SHORTCUT_BODY_LIMIT) || !headersAccepted(req.headers)) return { request: req };
  const text = await req.text();
  const id = plainToolsListId(text);
  if (id === undefined) {
    return { request: new Request(req.url, { method: req.method, headers: req.headers, body: text }) };
  }
  const body = `{"result":${serializedList(toolListFor(call))},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  return { response: new Response(body, { status: 200, headers: { "Content-Type": "application/json" } }) };
}

/** The SDK's header checks for a POST after initialization: Accept, Content-Type and MCP-Protocol-Version. */
function headersAccepted(headers: Headers): boolean {
  const accept = headers.get("accept");
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return false;
  const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") return false;
  const version = headers.get("mcp-protocol-version");
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/**
 * The id of a body that is one JSON-RPC request for tools/list with no params other than _meta (no cursor: the
 * list is one page), else undefined.
 */
function plainToolsListId(text: string): string | number | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method, params, ...rest } = message as Record<string, unknown>;
  if (jsonrpc !== "2.0" || method !== "tools/list" || Object.keys(rest).length > 0) return undefined;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) return undefined;
  if (params !== undefined) {
    if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
    if (Object.keys(params).some((k) => k !== "_meta")) return undefined;
  }
  return id;
}
