import { bodyTooLarge, limitBody } from "@ams/shared/http";
import type { MiddlewareHandler } from "hono";

/**
 * Where a request may carry a model file (tenant's upload routes, and MCP tool calls with one): the upload limit,
 * passed on as it streams; everything else gets the small JSON limit.
 */
export function isUploadRoute(method: string, path: string): boolean {
  if (method !== "POST") return false;
  return path === "/api/import" || path === "/api/workspaces" || path === "/mcp" || path === "/mcp/";
}

/**
 * The edge's body limits, the first middleware that may look at a body: nothing in control (authentication, the
 * NUL check, sign-in, the OAuth token endpoint, better-auth) reads more than `jsonBytes` of an ordinary request, and
 * an upload route's body is never buffered here. A declared Content-Length over the limit is refused with 413 at
 * once, unread; a body without one is counted as it is read (buffered up to the small limit, streamed through on
 * upload routes, whose readers run after authentication). The 413 names the limit and closes the connection.
 */
export function limitRequestBodies(limits: { jsonBytes: number; uploadBytes: number }): MiddlewareHandler {
  const small = limitBody(limits.jsonBytes);
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    if (!isUploadRoute(raw.method, c.req.path)) return small(c, next);
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      if (Number(declared) > limits.uploadBytes) throw bodyTooLarge(limits.uploadBytes);
      return next();
    }
    c.req.raw = new Request(raw, { body: countedBody(raw.body, limits.uploadBytes), duplex: "half" } as RequestInit);
    return next();
  };
}

/** The stream passed through unchanged, failing with the 413 error once more than `max` bytes went by. */
function countedBody(body: ReadableStream<Uint8Array>, max: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > max) controller.error(bodyTooLarge(max));
        else controller.enqueue(chunk);
      },
    }),
  );
}
