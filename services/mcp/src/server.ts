import type { Logger } from "@ams/shared";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { invalidParamsMessage } from "./initialize-check.ts";
import { modelingGuide } from "./prompts/modeling-guide.ts";
import { completeViewpoint, viewpointViewPrompt } from "./prompts/viewpoint-view.ts";
import { metamodelJson } from "./resources/metamodel.ts";
import { callTool, protocolError } from "./tools/call.ts";
import type { ToolCall } from "./tools/define.ts";
import { toolListFor } from "./tools/index.ts";

export const SERVER_INFO = {
  name: "archimate-modeling-service",
  title: "ArchiMate Modeling Service",
  version: "0.1.0",
};

const INSTRUCTIONS =
  "Edits ArchiMate 3.1 models of one workspace of your organization. Get the archimate-modeling-guide prompt first " +
  "(layers, element types, relationship rules, naming, the view workflow), then start with get_model_info. " +
  "Resources archimate://layers and archimate://relationships hold the metamodel as JSON.";

/** A request of this method with its params unchecked: the handler validates them and words the failure. */
const lenient = <M extends string>(method: M) =>
  z.looseObject({ method: z.literal(method), params: z.unknown().optional() });
const LENIENT_CALL_TOOL = lenient("tools/call");

/** The params of a request checked against the SDK's schema; a failure is -32602 naming each field. */
function checkedParams<T>(method: string, schema: z.ZodType<T>, params: unknown): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw protocolError(ErrorCode.InvalidParams, invalidParamsMessage(method, parsed.error));
}

/** Each Server would otherwise build its own Ajv instance (about a millisecond); one per process is enough. */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/** Built once: zod schemas are not free to construct, and every request builds a server. */
const VIEWPOINT_ARGS = {
  viewpoint: completable(
    z
      .string()
      .min(1)
      .max(200)
      .describe("Viewpoint name, e.g. 'Application Cooperation' (list_viewpoints names them all)"),
    completeViewpoint,
  ),
};

/**
 * One MCP server for one HTTP request (the transport is stateless). Tools are served by our own handlers rather
 * than McpServer.registerTool: the tools/list answer is converted from zod once per process and depends on the
 * caller's role, and argument failures are worded as REST words them (src/tools/call.ts).
 */
export function createMcpServer(call: ToolCall, log: Logger): McpServer {
  const mcp = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS, jsonSchemaValidator });
  const server = mcp.server;
  server.registerCapabilities({ tools: {} });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...toolListFor(call)] }));
  // The request is checked here rather than by the SDK, whose zod failure would reach the client as -32603 with a
  // raw dump of the schema error: malformed params are -32602 with the fields named.
  // Registered through the base Protocol class: Server's own override re-validates tools/call with its schema and
  // would answer a malformed call with the zod error text as the message.
  const setBaseHandler = Object.getPrototypeOf(Server.prototype).setRequestHandler;
  setBaseHandler.call(server, LENIENT_CALL_TOOL, (request: { params: unknown }) => {
    const params = checkedParams("tools/call", CallToolRequestSchema.shape.params, request.params);
    return callTool(call, params.name, params.arguments, log);
  });
  // initialize is checked between the transport and this server (checkInitializeParams, in app.ts).

  mcp.registerPrompt(
    "archimate-modeling-guide",
    {
      title: "ArchiMate modeling guide (use first)",
      description:
        "Read this before modeling: the ArchiMate 3.1 layers and their element types, how to choose a type, the relationship " +
        "rules and how to check them, naming conventions, and the view workflow with this server's tools.",
    },
    () => ({ messages: [{ role: "user", content: { type: "text", text: modelingGuide() } }] }),
  );
  mcp.registerPrompt(
    "create-viewpoint-view",
    {
      title: "Create a view for a viewpoint",
      description:
        "Step-by-step creation of a view for one ArchiMate viewpoint, with the element types that viewpoint allows.",
      argsSchema: VIEWPOINT_ARGS,
    },
    ({ viewpoint }) => ({
      messages: [{ role: "user", content: { type: "text", text: viewpointViewPrompt(viewpoint) } }],
    }),
  );

  mcp.registerResource(
    "archimate-layers",
    "archimate://layers",
    {
      title: "ArchiMate 3.1 layers",
      description:
        "Every layer with its element types (exchange name and display label), generated from the metamodel.",
      mimeType: "application/json",
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: metamodelJson().layers }] }),
  );
  mcp.registerResource(
    "archimate-relationships",
    "archimate://relationships",
    {
      title: "ArchiMate 3.1 relationship rules",
      description:
        "The relationship types with their meaning and the full validity table: allowed[source type][target type] = allowed types.",
      mimeType: "application/json",
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: metamodelJson().relationships }] }),
  );
  // The SDK advertises listChanged for prompts and resources; a stateless server never sends those notifications.
  server.registerCapabilities({ prompts: { listChanged: false }, resources: { listChanged: false } });
  return mcp;
}
