import http from "node:http";
import { pipeline, Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { HealthProbe, HealthReport } from "@ams/shared";
import type { Upstream } from "./upstream.ts";

/** Hop-by-hop headers (RFC 9110 7.6.1): they describe one connection, never the message. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

/**
 * Answers up to this size with a known length are read whole and handed on as bytes: the server then writes them in
 * one go instead of pumping a web stream chunk by chunk (most API answers are a few KiB). Larger answers, and those
 * without a length (MCP's event streams, exports written as they are produced), stream through unchanged.
 */
const BUFFERED_LIMIT = 1024 * 1024;

export type HttpUpstreamOptions = {
  /** Idle keep-alive connections kept per upstream; more may open under load. */
  keepAliveSockets?: number;
};

/**
 * Split mode: forwards to a service at `baseUrl` (e.g. TENANT_URL) over HTTP/1.1 with kept-alive connections,
 * keeping method, path under the base path, query, headers and the body (streamed both ways). Redirects are passed
 * back, not followed; the body is passed as sent (a compressed answer stays compressed and keeps its encoding).
 *
 * Written on node:http rather than fetch: the gateway's hop is on every request, and fetch's WHATWG streams and
 * header objects cost a few hundred microseconds each way that plain node:http does not.
 */
export function createHttpUpstream(baseUrl: string, opts: HttpUpstreamOptions = {}): Upstream {
  const base = new URL(baseUrl);
  if (base.protocol !== "http:") throw new Error(`The upstream ${baseUrl} must be an http:// URL`);
  const prefix = base.pathname.replace(/\/+$/, "");
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: opts.keepAliveSockets ?? 64, scheduling: "lifo" });
  const send = (req: Request, target: string, headers: Record<string, string>, attempt: number): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const outgoing = http.request(
        {
          agent,
          host: base.hostname,
          port: base.port || 80,
          method: req.method,
          path: target,
          headers,
          signal: req.signal,
        },
        (res) => resolve(toResponse(res)),
      );
      outgoing.on("error", (err) => {
        // A kept-alive connection the upstream closed just as this request went out (its idle timeout, or a restart):
        // the request never reached it. One without a body is sent again once, on a fresh connection, as HTTP
        // clients do for requests that can be repeated; a body already streamed out cannot be sent twice.
        if (outgoing.reusedSocket && attempt === 0 && req.body === null && isConnectionDrop(err)) {
          resolve(send(req, target, headers, 1));
        } else {
          reject(err);
        }
      });
      if (req.body === null) outgoing.end();
      else
        pipeline(Readable.fromWeb(req.body as NodeReadableStream), outgoing, (err) => {
          if (err) reject(err);
        });
    });
  return {
    fetch(req) {
      const incoming = new URL(req.url);
      const headers: Record<string, string> = {};
      req.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name)) headers[name] = value;
      });
      headers.host = base.host;
      return send(req, prefix + incoming.pathname + incoming.search, headers, 0);
    },
  };
}

const isConnectionDrop = (err: Error) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ECONNRESET" || code === "EPIPE";
};

async function toResponse(res: http.IncomingMessage): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const status = res.statusCode ?? 502;
  const init = { status, statusText: res.statusMessage, headers };
  // 204, 304 and HEAD answers carry no body; a Response refuses one for 204/304.
  if (status === 204 || status === 304) {
    res.resume();
    return new Response(null, init);
  }
  const length = Number(res.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(length) && length <= BUFFERED_LIMIT) {
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    return new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), init);
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, init);
}

/**
 * Split mode: the queue and graph probes of control's /api/health, read from the tenant's own /api/health (the
 * tenant holds the job queue and the graph). One request serves both probes of one health call.
 */
export function remoteHealthProbes(baseUrl: string): { queue: HealthProbe; graph: HealthProbe } {
  const url = new URL("api/health", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
  // Both probes of one health call run together: they share the request in flight, and only that one.
  let pending: Promise<HealthReport> | undefined;
  const report = () => {
    pending ??= fetch(url, { signal: AbortSignal.timeout(1500) })
      .then((r) => r.json() as Promise<HealthReport>)
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
  const probe =
    (key: "queue" | "graph"): HealthProbe =>
    async () => {
      const state = (await report()).checks?.[key];
      if (state === "not configured") return "not configured";
      if (state !== "up") throw new Error(`the tenant reports ${key} ${state ?? "unknown"}`);
    };
  return { queue: probe("queue"), graph: probe("graph") };
}
