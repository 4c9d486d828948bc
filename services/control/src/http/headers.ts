import type { Context } from "hono";

/** Strict-Transport-Security when PUBLIC_URL is https: a year, this host only (subdomains may be other services). */
export const HSTS = "max-age=31536000";

/**
 * Sets a header on the response a handler produced. A response passed on from an upstream over HTTP has immutable
 * headers: it is copied first.
 */
export function setHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    const copy = new Response(c.res.body, c.res);
    copy.headers.set(name, value);
    c.res = copy;
  }
}
