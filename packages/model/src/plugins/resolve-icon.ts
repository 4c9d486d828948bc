import { isSafeHref } from "../render/plugin-icon.ts";
import type { PackIcon, Plugin, PluginCatalog } from "./catalog.ts";
import { PLUGIN_SLUG } from "./manifest.ts";

/** What a `Service Plugin IconPack` value stands for, when it stands for anything. */
export type IconResolution =
  | { kind: "plugin"; plugin: Plugin; icon: PackIcon }
  /** A value written before plugins existed: an https URL or a same-origin relative path. */
  | { kind: "legacy"; href: string };

/** Where the public icon route serves a plugin icon. */
export const publicIconUrl = (pluginId: string, iconSlug: string) =>
  `/api/plugins/${encodeURIComponent(pluginId)}/icons/${encodeURIComponent(iconSlug)}`;

/**
 * The one resolution rule, for the server renderer and the UI alike:
 * - a value shaped like a slug names a plugin icon; it resolves only while the plugin declaring it is enabled;
 * - anything else is a legacy reference, kept when it is an https URL or a same-origin relative path;
 * - everything else is unresolved (undefined): the element shows its type icon, no error.
 * A slug is never taken as a relative path, so disabling a plugin cannot turn its slugs into broken image links.
 */
export function resolveIconValue(
  catalog: PluginCatalog,
  isEnabled: (pluginId: string) => boolean,
  raw: string,
): IconResolution | undefined {
  if (typeof raw !== "string") return undefined;
  const value = raw.trim();
  if (!value) return undefined;
  if (PLUGIN_SLUG.test(value)) {
    const hit = catalog.bySlug.get(value);
    if (!hit || hit.plugin.placeholder || !isEnabled(hit.plugin.id)) return undefined;
    return { kind: "plugin", plugin: hit.plugin, icon: hit.icon };
  }
  return isSafeHref(value) ? { kind: "legacy", href: value } : undefined;
}

/** For the SVG renderer: the sanitized SVG to inline, or the legacy href. */
export function toRenderIcon(r: IconResolution | undefined): { href: string } | { svg: string } | undefined {
  if (!r) return undefined;
  return r.kind === "plugin" ? { svg: r.icon.svg } : { href: r.href };
}

/** For the UI: a URL the browser loads the icon from. */
export function iconUrlOf(r: IconResolution | undefined): string | undefined {
  if (!r) return undefined;
  return r.kind === "plugin" ? publicIconUrl(r.plugin.id, r.icon.slug) : r.href;
}
