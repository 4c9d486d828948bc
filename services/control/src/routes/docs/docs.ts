import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";

const require = createRequire(import.meta.url);
const assetsDir = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ArchiMate modeling service — API reference</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/docs-init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#reference", deepLinking: true,
  persistAuthorization: false, withCredentials: true, tryItOutEnabled: false });`;

/** The interactive reference, served from the swagger-ui-dist package: no third-party host is contacted. */
export function registerDocsRoutes<E extends Env>(app: OpenAPIHono<E>, document: () => Promise<unknown>) {
  app.get("/api/openapi.json", async (c) => c.json(await document()));
  app.get("/api/docs", (c) =>
    c.html(PAGE, 200, {
      "content-security-policy":
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    }),
  );
  app.get("/api/docs/assets/docs-init.js", (c) =>
    c.body(INIT, 200, { "content-type": "text/javascript; charset=utf-8" }),
  );
  app.get("/api/docs/assets/:file", async (c) => {
    const file = c.req.param("file");
    const type = ASSETS[file];
    if (!type) return c.notFound();
    return c.body(await readFile(path.join(assetsDir, file)), 200, {
      "content-type": type,
      "cache-control": "public, max-age=86400",
    });
  });
}
