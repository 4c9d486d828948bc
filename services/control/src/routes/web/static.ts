import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Context } from "hono";
import type { App } from "../../http/app-env.ts";

/**
 * The browser UI: hashed assets with a year of caching, and index.html (never cached) for every other page path
 * so that deep links and reloads land in the app. A strict Content-Security-Policy: scripts and styles only from
 * this origin (the bundle has no inline script), images also from data: and blob: (PNG export), no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
};

type Asset = { body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; type: string };

/**
 * Paths that belong to the API, MCP, sign-in protocols or operations, never to the app: an unknown one answers 404
 * from its own handlers rather than the app's page (metrics in particular stay off the public port). The one
 * exception under /oauth is the MCP consent page, which is the app's (the authorization endpoint sends the browser
 * there).
 */
const RESERVED = /^\/(api|mcp|auth|oauth(?!\/consent$)|\.well-known|metrics|healthz|readyz|livez)(\/|$)/;

const securityHeaders = (c: Context) => {
  c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "same-origin");
  c.header("X-Frame-Options", "DENY");
};

function load(dir: string): { index: string; assets: Map<string, Asset> } | null {
  const indexPath = join(dir, "index.html");
  if (!existsSync(indexPath)) return null;
  const assets = new Map<string, Asset>();
  const assetDir = join(dir, "assets");
  for (const name of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const body = new Uint8Array(readFileSync(join(assetDir, name)));
    const ext = name.slice(name.lastIndexOf(".") + 1);
    assets.set(name, {
      body,
      gzip: new Uint8Array(gzipSync(body, { level: 9 })),
      type: TYPES[ext] ?? "application/octet-stream",
    });
  }
  return { index: readFileSync(indexPath, "utf8"), assets };
}

export function registerWebRoutes(app: App, dir: string): void {
  let bundle: ReturnType<typeof load> | undefined;
  const current = () => (bundle ??= load(dir));

  app.get("/assets/:name", (c) => {
    const asset = current()?.assets.get(c.req.param("name"));
    if (!asset) return c.text("Not found", 404);
    securityHeaders(c);
    c.header("Content-Type", asset.type);
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    c.header("Vary", "Accept-Encoding");
    if ((c.req.header("accept-encoding") ?? "").includes("gzip")) {
      c.header("Content-Encoding", "gzip");
      return c.body(asset.gzip);
    }
    return c.body(asset.body);
  });

  app.get("*", (c, next) => {
    // Files the app does not have (a path with an extension) are not pages either.
    if (RESERVED.test(c.req.path) || /\.[A-Za-z0-9]+$/.test(c.req.path)) return next();
    const b = current();
    securityHeaders(c);
    c.header("Cache-Control", "no-cache");
    if (!b) {
      bundle = undefined; // look again on the next request: a build may be running
      return c.html(
        "<!doctype html><title>ArchiMate Modeler</title><p>The browser UI is not built. Run <code>./pnpm build:web</code> (<code>./pnpm start</code> builds it) and reload.</p>",
        503,
      );
    }
    return c.html(b.index);
  });
}
