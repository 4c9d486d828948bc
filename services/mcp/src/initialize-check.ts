import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, InitializeRequestSchema, isJSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/** A failed params check worded for the caller: -32602's message names each field (at most ten). */
export function invalidParamsMessage(method: string, error: z.ZodError): string {
  const detail = error.issues
    .slice(0, 10)
    .map((i) => `${i.path.join(".") || "params"}: ${i.message}`)
    .join("; ");
  return `Invalid ${method} params: ${detail}`;
}

/**
 * Checks the params of every initialize request between the transport and the server. The SDK's server validates
 * them with its own schema and answers a failure (a missing protocolVersion, no params at all) as -32603 with the raw
 * zod dump; here the request never reaches it, and the caller gets -32602 naming the fields. Only the transport's
 * public hooks are used (onmessage, which connect() set, and send), so nothing depends on the SDK's internals.
 * Call it after server.connect(transport).
 */
export function checkInitializeParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error("checkInitializeParams: connect the server to the transport first");
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === "initialize") {
      const parsed = InitializeRequestSchema.shape.params.safeParse(message.params);
      if (!parsed.success) {
        void transport.send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: ErrorCode.InvalidParams, message: invalidParamsMessage("initialize", parsed.error) },
        });
        return;
      }
    }
    deliver(message, extra);
  };
}
