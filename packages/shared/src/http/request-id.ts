import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";

export const REQUEST_ID_HEADER = "x-request-id";

/** Hono variables set by requestId(): every service's Env includes these. */
export type RequestIdVariables = { requestId: string };

/** What a caller may pass as its own request id: short and printable, so it is safe in a log line and a header. */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when acceptable, otherwise a fresh one. */
export function requestIdOf(header: string | undefined | null): string {
  return header && ACCEPTED.test(header) ? header : randomUUID();
}

/**
 * Gives every request an id (the caller's X-Request-Id when acceptable, else a new UUID), in `c.var.requestId` and
 * the answer's X-Request-Id header. The gateway forwards it, so one id follows a request through every service.
 */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    const id = requestIdOf(c.req.header(REQUEST_ID_HEADER));
    c.set("requestId", id);
    await next();
    const res = withHeader(c.res, REQUEST_ID_HEADER, id);
    if (res !== c.res) c.res = res;
  };
}

/** The response with one header set; a response whose headers are immutable (from fetch) is copied first. */
export function withHeader(res: Response, name: string, value: string): Response {
  try {
    res.headers.set(name, value);
    return res;
  } catch {
    const headers = new Headers(res.headers);
    headers.set(name, value);
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  }
}
