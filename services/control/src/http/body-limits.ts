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
    const counted = countedBody(raw.body, limits.uploadBytes);
    c.req.raw = new Request(raw, { body: counted.body, duplex: "half" } as RequestInit);
    overflows.set(c.req.raw, counted.overflow);
    return next();
  };
}

type Overflow = { error?: ReturnType<typeof bodyTooLarge> };
const overflows = new WeakMap<Request, Overflow>();

/**
 * The 413 an upload route's streamed body ran into, if it did. The reader downstream may have turned the broken
 * stream into an answer of its own (MCP's transport answers a parse error): the gateway answers this instead.
 */
export function bodyOverflow(request: Request): Error | undefined {
  return overflows.get(request)?.error;
}

/** The stream passed through unchanged, failing with the 413 error once more than `max` bytes went by. */
function countedBody(body: ReadableStream<Uint8Array>, max: number) {
  let seen = 0;
  const overflow: Overflow = {};
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen <= max) return controller.enqueue(chunk);
        overflow.error = bodyTooLarge(max);
        controller.error(overflow.error);
      },
    }),
  );
  return { body: counted, overflow };
}
