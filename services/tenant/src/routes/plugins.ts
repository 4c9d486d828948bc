import type { Database } from "@ams/db";
import {
  emptyPluginRegistry,
  getPlatformPlugin,
  getPublicPluginIcon,
  listEnabledPlugins,
  listPlatformPlugins,
  type PackIcon,
  PluginDetail,
  type PluginRegistry,
  PluginSummary,
  PublicPlugin,
  previewPluginIcon,
  setPluginEnabled,
} from "@ams/model";
import { AppError } from "@ams/shared";
import { registerRoute } from "@ams/shared/http";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { TenantEnv } from "../middleware/service-auth.ts";
import type { TenantApp } from "./openapi.ts";

export type { PluginRegistry };

const tags = ["Plugins"];

const slugParam = (name: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name, in: "path" } });
const PluginParam = z.object({ slug: slugParam("slug") });
const PreviewParams = PluginParam.extend({ iconSlug: slugParam("iconSlug") });
const PublicIconParams = z.object({ pluginSlug: slugParam("pluginSlug"), iconSlug: slugParam("iconSlug") });
const SetEnabledInput = z.strictObject({ enabled: z.boolean() }).openapi("SetPluginEnabled");

/** An icon answer: the SVG, or 304 when the caller's copy is current. */
const svgOutput = (description: string) => ({
  raw: {
    200: { description, content: { "image/svg+xml": z.string() } },
    304: { description: "Not modified (If-None-Match matched the ETag)" },
  },
});

/** An icon is data, never a document: nothing in it may run, load or be sniffed as something else. */
const ICON_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
/** Clients may reuse an icon this long; after that the ETag makes revalidation a 304. */
const PUBLIC_MAX_AGE = 300;

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored, "*" matches anything. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => bare(t) === bare(etag));
}

function svgIcon(c: Context<TenantEnv>, icon: PackIcon, cacheControl: string): Response {
  const headers = {
    etag: icon.etag,
    "cache-control": cacheControl,
    "content-security-policy": ICON_CSP,
    "x-content-type-options": "nosniff",
  };
  if (matchesEtag(c.req.header("if-none-match"), icon.etag)) return c.body(null, 304, headers);
  return c.body(icon.svg, 200, { ...headers, "content-type": "image/svg+xml; charset=utf-8" });
}

/**
 * Plugin routes. The control gateway authenticates and checks Admin before forwarding; the platform routes check
 * the Admin claim again here. The public icon route is reached without a caller (see isPublicPath).
 * Registered before the model routes: its middleware brings the enabled flags up to date (at most one database read
 * per TTL) before any route that resolves icons runs, so a change on another replica is seen within the TTL.
 */
export function registerPluginRoutes(app: TenantApp, deps: { database: Database; plugins?: PluginRegistry }) {
  const plugins = deps.plugins ?? emptyPluginRegistry(deps.database);
  app.use("/api/*", async (_c, next) => {
    await plugins.refreshIfStale();
    await next();
  });

  registerRoute(
    app,
    {
      method: "get",
      path: "/api/platform/plugins",
      tags,
      operationId: "listPlatformPlugins",
      output: {
        schema: z.array(PluginSummary),
        description: "Every plugin found at start-up: name, version, icon_count, enabled, type, placeholder",
      },
    },
    async (c) => listPlatformPlugins({ ctx: c.var.ctx, plugins }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/platform/plugins/{slug}",
      tags,
      operationId: "getPlatformPlugin",
      params: PluginParam,
      output: { schema: PluginDetail, description: "The plugin with its type and full icon list" },
    },
    async (c, { params }) => getPlatformPlugin({ ctx: c.var.ctx, plugins, input: params }),
  );
  registerRoute(
    app,
    {
      method: "put",
      path: "/api/platform/plugins/{slug}",
      tags,
      operationId: "setPluginEnabled",
      params: PluginParam,
      body: SetEnabledInput,
      output: { schema: PluginSummary, description: "The plugin after the change" },
    },
    async (c, { params, body }) => setPluginEnabled({ ctx: c.var.ctx, plugins, input: { ...params, ...body } }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/platform/plugins/{slug}/icons/{iconSlug}",
      tags,
      operationId: "previewPluginIcon",
      params: PreviewParams,
      output: svgOutput("Sanitized SVG, also of a disabled plugin"),
    },
    (c, { params }) => svgIcon(c, previewPluginIcon({ ctx: c.var.ctx, plugins, input: params }), "private, no-cache"),
  );

  registerRoute(
    app,
    {
      method: "get",
      path: "/api/plugins",
      tags,
      operationId: "listPlugins",
      output: { schema: z.array(PublicPlugin), description: "Enabled icon packs with their icons: slug, name, url" },
    },
    async (c) => listEnabledPlugins({ ctx: c.var.ctx, plugins }),
  );
  registerRoute(
    app,
    {
      method: "get",
      path: "/api/plugins/{pluginSlug}/icons/{iconSlug}",
      tags,
      operationId: "getPluginIcon",
      public: true,
      params: PublicIconParams,
      output: svgOutput("Sanitized SVG of an enabled plugin; no authentication"),
      commonProblems: false,
      problems: { 404: "Not found (or not visible to the caller)" },
    },
    (c, { params }) => {
      let icon: PackIcon;
      try {
        icon = getPublicPluginIcon({ plugins, input: params });
      } catch (err) {
        // A 404 must not be cached: enabling the plugin makes the icon appear at once.
        if (err instanceof AppError)
          throw new AppError(err.code, err.message, { headers: { "cache-control": "no-store" } });
        throw err;
      }
      return svgIcon(c, icon, `public, max-age=${PUBLIC_MAX_AGE}`);
    },
  );
}
