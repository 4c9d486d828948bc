import { SERVICE_TOKEN_HEADER } from "@ams/shared/http";

/** The headers an MCP client sends with a JSON-RPC POST. */
export const MCP_HEADERS: Record<string, string> = {
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  "mcp-protocol-version": "2025-06-18",
};

/**
 * POSTs `body` to the mcp app with a service token: with its Content-Length (the shortcuts may answer) or as a
 * stream without one (the SDK answers). Answers the status, content type and text.
 */
export async function postMcp(
  app: { fetch(req: Request): Response | Promise<Response> },
  token: string,
  body: string,
  how: "sized" | "streamed",
  headers: Record<string, string> = MCP_HEADERS,
) {
  const bytes = new TextEncoder().encode(body);
  const init: RequestInit & { duplex?: "half" } = {
    method: "POST",
    headers: {
      ...headers,
      [SERVICE_TOKEN_HEADER]: token,
      ...(how === "sized" ? { "content-length": String(bytes.length) } : {}),
    },
    body:
      how === "sized"
        ? body
        : new ReadableStream({
            start(controller) {
              controller.enqueue(bytes);
              controller.close();
            },
          }),
    duplex: "half",
  };
  const res = await app.fetch(new Request("http://mcp.internal/api/mcp", init));
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}
