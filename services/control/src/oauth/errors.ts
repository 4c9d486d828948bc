import type { Context } from "hono";

/** An OAuth error answer (RFC 6749 section 5.2): JSON with error and error_description, never cached. */
export function oauthError(c: Context, status: 400 | 401, error: string, description: string) {
  return c.json({ error, error_description: description }, status, { "cache-control": "no-store", pragma: "no-cache" });
}
