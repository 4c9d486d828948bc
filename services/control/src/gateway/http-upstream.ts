import type { HealthProbe, HealthReport } from "@ams/shared";
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
