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

/**
 * Each list's answer as UTF-8 bytes, around the request's id: `{"result":<list>,"jsonrpc":"2.0","id":` and `}`.
 * Encoding 100+ KB of text per request was a tenth of the answer's cost; the bytes are built once per process.
 */
const serialized = new Map<readonly unknown[], Buffer>();
const SUFFIX = Buffer.from("}");
function serializedList(list: readonly unknown[]): Buffer {
  let bytes = serialized.get(list);
  if (bytes === undefined) {
    bytes = Buffer.from(`{"result":${JSON.stringify({ tools: list })},"jsonrpc":"2.0","id":`);
    serialized.set(list, bytes);
  }
  return bytes;
}

/**
 * One JSON-RPC request as the SDK's transport accepts it, read without the SDK: exactly the members jsonrpc "2.0",
 * id (a string or an integer), method and optionally params (an object).
 */
export type PlainRequest = { id: string | number; method: string; params?: Record<string, unknown> };

/** The answer, or the request to hand on (rebuilt when its body was read) with its plain message when it is one. */
type Shortcut = { response: Response } | { request: Request; plain?: PlainRequest };

/**
 * The answer to a plain tools/list request, or the request to hand on: to the tools/call shortcut
 * (tools-call-shortcut.ts) when it is a plain request, else to the SDK. Only a request with a Content-Length is
 * read: one without a length could be any size, and the SDK limits those.
 */
export async function toolsListShortcut(req: Request, call: ToolCall): Promise<Shortcut> {
  const length = Number(req.headers.get("content-length") ?? Number.NaN);
  if (!(length >= 0 && length <= SHORTCUT_BODY_LIMIT) || !headersAccepted(req.headers)) return { request: req };
  const text = await req.text();
  const plain = plainRequest(text);
  if (plain === undefined || !isPlainToolsList(plain)) {
    const request = new Request(req.url, { method: req.method, headers: req.headers, body: text });
    return plain === undefined ? { request } : { request, plain };
  }
  const body = Buffer.concat([serializedList(toolListFor(call)), Buffer.from(JSON.stringify(plain.id)), SUFFIX]);
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

/** The body as one plain JSON-RPC request (PlainRequest), else undefined: a batch, a notification, anything else. */
function plainRequest(text: string): PlainRequest | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(message)) return undefined;
  const { jsonrpc, id, method, params, ...rest } = message;
  if (jsonrpc !== "2.0" || typeof method !== "string" || Object.keys(rest).length > 0) return undefined;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) return undefined;
  if (params === undefined) return { id, method };
  return isRecord(params) ? { id, method, params } : undefined;
}

/** tools/list with no params other than _meta (no cursor: the list is one page). */
function isPlainToolsList({ method, params }: PlainRequest): boolean {
  return method === "tools/list" && (params === undefined || Object.keys(params).every((k) => k === "_meta"));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
