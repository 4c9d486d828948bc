import { AppError, type Logger } from "@ams/shared";
import { REQUEST_ID_HEADER, SERVICE_TOKEN_HEADER } from "@ams/shared/http";
import type { Context } from "hono";
import { bodyOverflow } from "../http/body-limits.ts";
import type { Upstream } from "./upstream.ts";

/** What the upstream may see of the caller's headers: content and negotiation, never cookies or credentials. */
const PASSED_HEADERS = [
  "accept",
  "accept-language",
  "content-type",
  // The body is passed on unchanged, so its length still holds; the receiver then knows the size before reading.
  "content-length",
  "content-language",
  "content-disposition",
  "if-match",
  "if-none-match",
  "if-modified-since",
  "if-unmodified-since",
  "mcp-protocol-version",
  "last-event-id",
];

/** Upstream responses must not set cookies on our origin. */
const DROP_FROM_RESPONSE = ["set-cookie", "set-cookie2"];

export type ForwardOptions = {
  path: string;
  /** The signed inter-service token; null only for public routes. */
  serviceToken: string | null;
  /** The body when the gateway already read it (to peek at organization_id); else the stream is passed on. */
  body?: ArrayBuffer;
  /** Where a failed hop is logged (the caller gets 503 without the detail). */
  log?: Logger;
};

export async function forwardRequest(c: Context, upstream: Upstream, opts: ForwardOptions): Promise<Response> {
  const original = new URL(c.req.url);
  const url = new URL(opts.path + original.search, original.origin);
  const headers = new Headers();
  for (const name of PASSED_HEADERS) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  // The id requestId() gave this request (the caller's when acceptable), so every service logs the same one.
  const id = (c.var as { requestId?: string }).requestId;
  if (id) headers.set(REQUEST_ID_HEADER, id);
  headers.set("x-forwarded-host", c.req.header("x-forwarded-host") ?? original.host);
  headers.set("x-forwarded-proto", c.req.header("x-forwarded-proto") ?? original.protocol.replace(":", ""));
  if (opts.serviceToken) headers.set(SERVICE_TOKEN_HEADER, opts.serviceToken);
  const method = c.req.method;
  const hasBody = method !== "GET" && method !== "HEAD";
  const init = { method, headers, redirect: "manual" } as RequestInit & { duplex?: "half" };
  if (hasBody) {
    init.body = opts.body ?? c.req.raw.body;
    init.duplex = "half";
  }
  let res: Response;
  try {
    res = await upstream.fetch(new Request(url, init));
  } catch (err) {
    // The caller's body went over the edge's upload limit while it streamed to the upstream (http/body-limits.ts).
    const cause = err instanceof AppError ? err : (err as { cause?: unknown })?.cause;
    if (cause instanceof AppError && cause.code === "PAYLOAD_TOO_LARGE") throw cause;
    const id = (c.var as { requestId?: string }).requestId;
    opts.log?.warn("upstream request failed", { request_id: id, path: opts.path, err });
    throw new AppError("UNAVAILABLE", "The upstream service is unavailable");
  }
  const overflow = bodyOverflow(c.req.raw);
  if (overflow) {
    await res.body?.cancel();
    throw overflow;
  }
  if (!DROP_FROM_RESPONSE.some((h) => res.headers.has(h))) return res;
  const out = new Headers(res.headers);
  for (const name of DROP_FROM_RESPONSE) out.delete(name);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
}
