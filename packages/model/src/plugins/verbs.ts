import { AppError, notFound } from "@ams/shared";
import type { RequestContext } from "../context.ts";
import type { PackIcon, Plugin } from "./catalog.ts";
import type { PluginRegistry } from "./registry.ts";
import { publicIconUrl } from "./resolve-icon.ts";
import type { PluginDetail, PluginSummary, PublicPlugin } from "./schemas.ts";

/** Plugin verbs take the registry beside the caller: plugins are process state, not workspace data. */
type PluginVerb<I = undefined> = { ctx: RequestContext; plugins: PluginRegistry; input: I };

/** Platform routes are metadata administration: the `platform_admin` realm role only, no membership involved. */
export function requirePlatformAdmin(ctx: RequestContext): void {
  if (!ctx.platformAdmin) throw new AppError("FORBIDDEN", "Only a platform Admin may administer plugins");
}

function findPlugin(plugins: PluginRegistry, slug: string): Plugin {
  const plugin = plugins.catalog.byId.get(slug);
  if (!plugin) throw notFound("Plugin", slug);
  return plugin;
}

function summarize(plugins: PluginRegistry, p: Plugin): PluginSummary {
  return {
    id: p.id,
    slug: p.id,
    name: p.name,
    version: p.version,
    description: p.description,
    type: p.type,
    icon_count: p.icons.length,
    enabled: plugins.isEnabled(p.id),
    placeholder: p.placeholder,
  };
}

export function listPlatformPlugins({ ctx, plugins }: Omit<PluginVerb, "input">): PluginSummary[] {
  requirePlatformAdmin(ctx);
  return plugins.catalog.plugins.map((p) => summarize(plugins, p));
}

export function getPlatformPlugin({ ctx, plugins, input }: PluginVerb<{ slug: string }>): PluginDetail {
  requirePlatformAdmin(ctx);
  const p = findPlugin(plugins, input.slug);
  return {
    ...summarize(plugins, p),
    source: p.source,
    icons: p.icons.map((i) => ({
      slug: i.slug,
      name: i.name,
      file: i.file,
      url: `/api/platform/plugins/${encodeURIComponent(p.id)}/icons/${encodeURIComponent(i.slug)}`,
    })),
  };
}

export async function setPluginEnabled({
  ctx,
  plugins,
  input,
}: PluginVerb<{ slug: string; enabled: boolean }>): Promise<PluginSummary> {
  requirePlatformAdmin(ctx);
  const p = findPlugin(plugins, input.slug);
  if (input.enabled && p.placeholder) {
    throw new AppError(
      "CONFLICT",
      `Plugin '${p.id}' has type '${p.type}', which this service cannot serve; only icon-pack plugins can be enabled`,
    );
  }
  await plugins.setEnabled(p.id, input.enabled, ctx.userId);
  return summarize(plugins, p);
}

/** The Admin's preview: any icon of an icon pack, enabled or not. */
export function previewPluginIcon({ ctx, plugins, input }: PluginVerb<{ slug: string; iconSlug: string }>): PackIcon {
  requirePlatformAdmin(ctx);
  const p = findPlugin(plugins, input.slug);
  const hit = plugins.catalog.bySlug.get(input.iconSlug);
  if (!hit || hit.plugin !== p) throw notFound("Icon", input.iconSlug);
  return hit.icon;
}

/** Any signed-in user: the enabled icon packs and where to load each icon. */
export function listEnabledPlugins({ plugins }: Omit<PluginVerb, "input">): PublicPlugin[] {
  return plugins.catalog.plugins
    .filter((p) => !p.placeholder && plugins.isEnabled(p.id))
    .map((p) => ({
      id: p.id,
      slug: p.id,
      name: p.name,
      version: p.version,
      description: p.description,
      icons: p.icons.map((i) => ({ slug: i.slug, name: i.name, url: publicIconUrl(p.id, i.slug) })),
    }));
}

/**
 * The public icon: no caller at all. A disabled plugin, a placeholder plugin and an unknown slug all answer the
 * same 404, so the route reveals nothing about plugins that are not in use.
 */
export function getPublicPluginIcon({
  plugins,
  input,
}: {
  plugins: PluginRegistry;
  input: { pluginSlug: string; iconSlug: string };
}): PackIcon {
  const hit = plugins.catalog.bySlug.get(input.iconSlug);
  if (!hit || hit.plugin.id !== input.pluginSlug || hit.plugin.placeholder || !plugins.isEnabled(hit.plugin.id))
    throw new AppError("NOT_FOUND", `No icon '${input.iconSlug}' in an enabled plugin '${input.pluginSlug}'`);
  return hit.icon;
}
