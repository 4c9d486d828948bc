import type { Context } from "hono";

/**
 * The caller's address for the login limit. X-Forwarded-For is believed only as far as the configured number of
 * trusted proxies (each appends one entry); otherwise the socket address, or "unknown" when there is none.
 */
export function clientIp(c: Context, trustedHops: number): string {
  if (trustedHops > 0) {
    const chain = (c.req.header("x-forwarded-for") ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const entry = chain[chain.length - trustedHops];
    if (entry) return entry;
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "unknown";
}
