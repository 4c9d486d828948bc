import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, test } from "vitest";
import type { AppEnv } from "../../src/http/app-env.ts";
import { CONTENT_SECURITY_POLICY, registerWebRoutes } from "../../src/routes/web/static.ts";

function appServing(dir: string) {
  const app = new OpenAPIHono<AppEnv>();
  app.get("/api/health", (c) => c.json({ status: "ok" }));
  registerWebRoutes(app, dir);
  return app;
}

function builtUi(): string {
  const dir = mkdtempSync(join(tmpdir(), "ams-web-dist-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), '<!doctype html><script type="module" src="/assets/app-ABC.js"></script>');
  writeFileSync(join(dir, "assets", "app-ABC.js"), "console.log('the app');".repeat(50));
  return dir;
}

describe("the browser UI as control serves it", () => {
  test("pages get index.html uncached under a strict CSP; assets are gzip and cached for a year", async () => {
    const app = appServing(builtUi());
    // The MCP OAuth consent page is the app's, under its strict CSP and never framed (a framed Allow button could be
    // clicked by a hidden page).
    for (const path of ["/", "/login", "/workspaces/some-id", "/oauth/consent"]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(await res.text()).toContain("/assets/app-ABC.js");
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe-inline");

    const asset = await app.request("/assets/app-ABC.js", { headers: { "accept-encoding": "gzip" } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-encoding")).toBe("gzip");
    expect(asset.headers.get("content-type")).toContain("text/javascript");
    expect(gunzipSync(Buffer.from(await asset.arrayBuffer())).toString()).toContain("the app");
    const plain = await app.request("/assets/app-ABC.js");
    expect(plain.headers.get("content-encoding")).toBeNull();
  });

  test("API, MCP, protocol and operations paths, unknown assets and files are never answered with the app", async () => {
    const app = appServing(builtUi());
    for (const path of [
      "/api/nope",
      "/mcp",
      "/auth/x",
      "/oauth/x",
      "/oauth/consent/x",
      "/oauth/authorize",
      "/.well-known/x",
      "/metrics",
      "/assets/missing.js",
      "/robots.txt",
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain("<script");
    }
    expect((await app.request("/api/health")).status).toBe(200);
  });

  test("without a build, pages say how to build it (503) instead of a blank page", async () => {
    const res = await appServing(mkdtempSync(join(tmpdir(), "ams-no-ui-"))).request("/");
    expect(res.status).toBe(503);
    expect(await res.text()).toContain("./pnpm build:web");
  });
});
