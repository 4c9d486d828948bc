import { must } from "@ams/shared/testing";

/**
 * A minimal browser for the sign-in flow: one cookie jar per host (names only: paths are not modelled, which the
 * flow does not need), redirects followed by hand so each hop can be inspected. Requests to the control app's
 * host go to its fetch function in process; everything else (the identity provider) goes over the network.
 */
export type Hop = { url: string; status: number; location: string | null; res: Response };

/** The last hop of a followed chain, or a failure when the chain is empty. */
export function lastHop(hops: Hop[]): Hop {
  return must(hops.at(-1), "the last hop of the redirect chain");
}

/** Where the last hop of a chain redirects to, resolved against its URL. */
export function redirectTarget(hops: Hop[]): URL {
  const hop = lastHop(hops);
  return new URL(must(hop.location ?? undefined, `the Location of ${hop.url}`), hop.url);
}

export function createBrowser(
  app: { request(url: string, init: RequestInit): Response | Promise<Response> },
  appHost: string,
) {
  const jars = new Map<string, Map<string, string>>();
  const jar = (host: string) => {
    let j = jars.get(host);
    if (!j) {
      j = new Map();
      jars.set(host, j);
    }
    return j;
  };

  function store(host: string, res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k = "", v] = a.trim().split("=");
        if (v === undefined) return false;
        if (k.toLowerCase() === "max-age") return Number(v) <= 0;
        if (k.toLowerCase() === "expires") return new Date(v).getTime() <= Date.now();
        return false;
      });
      if (expired || value === "") jar(host).delete(name);
      else jar(host).set(name, value);
    }
  }

  async function send(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = [...jar(target.host).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
    if (cookies) headers.set("cookie", cookies);
    // As a browser does: every request but GET and HEAD names the page's origin (here: the target's own).
    const method = (init.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", target.origin);
    const req = { ...init, headers, redirect: "manual" as const };
    const res = target.host === appHost ? await app.request(url, req) : await fetch(url, req);
    store(target.host, res);
    return res;
  }

  return {
    cookies: (host = appHost) => Object.fromEntries(jar(host)),
    setCookie: (name: string, value: string, host = appHost) => jar(host).set(name, value),
    send,
    /** Follows redirects from `url` while `until` (checked on each hop's URL) says to go on. */
    async follow(url: string, init: RequestInit = {}, max = 10, until?: (url: string) => boolean): Promise<Hop[]> {
      const hops: Hop[] = [];
      let next: string | null = url;
      let request = init;
      for (let i = 0; i < max && next; i++) {
        if (until?.(next)) break;
        const res = await send(next, request);
        const location = res.headers.get("location");
        hops.push({ url: next, status: res.status, location, res });
        next = location && res.status >= 300 && res.status < 400 ? new URL(location, next).toString() : null;
        request = {};
      }
      return hops;
    },
  };
}

export type Browser = ReturnType<typeof createBrowser>;
