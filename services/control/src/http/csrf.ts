import { AppError } from "@ams/shared";
import type { Context } from "hono";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF protection of cookie-authenticated writes, in both profiles: the browser's Origin (or, without one, the
 * Referer's origin) must be the request's own origin, PUBLIC_URL's or one of TRUSTED_ORIGINS. A write without either
 * header is refused too: browsers always send Origin on cross-origin and on same-origin POST/PUT/PATCH/DELETE.
 * SameSite=Lax alone is not enough: a sibling subdomain is same-site. Bearer requests are not subject to it (a page
 * of another site cannot make a browser send one).
 */
export function checkOrigin(c: Context, trusted: string[]): void {
  if (SAFE.has(c.req.method)) return;
  const origin = c.req.header("origin") ?? refererOrigin(c.req.header("referer"));
  if (origin && (origin === new URL(c.req.url).origin || trusted.includes(origin))) return;
  throw crossSite();
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer || !URL.canParse(referer)) return undefined;
  return new URL(referer).origin;
}

const crossSite = () =>
  new AppError("FORBIDDEN", "Cross-site request refused: the Origin of a cookie-authenticated write must be trusted");
