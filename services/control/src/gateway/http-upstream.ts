import type { Upstream } from "./upstream.ts";

/** Hop-by-hop headers (RFC 9110 7.6.1) plus the ones fetch invalidates by decoding the body. */
const DROP_FROM_RESPONSE = ["connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length"];

/**
 * Split mode: forwards to a service at `baseUrl` (e.g. TENANT_URL) over HTTP, keeping method, path, query, headers
 * and the streamed body. fetch keeps connections alive, so the hop costs no new TCP handshake per request.
 */
export function createHttpUpstream(baseUrl: string): Upstream {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  return {
    async fetch(req) {
      const incoming = new URL(req.url);
      const target = new URL(prefix + incoming.pathname + incoming.search, base.origin);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const res = await fetch(target, {
        method: req.method,
        headers: req.headers,
        body: hasBody ? req.body : undefined,
        redirect: "manual",
        ...(hasBody ? { duplex: "half" } : {}),
      } as RequestInit);
      const headers = new Headers(res.headers);
      for (const name of DROP_FROM_RESPONSE) headers.delete(name);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    },
  };
}
