import type { PluginSource } from "./manifest.ts";

/** One icon of an icon pack: its sanitized SVG, read once at start-up and served from memory. */
export type PackIcon = {
  slug: string;
  name: string;
  /** Path inside the plugin folder, as plugin.json names it. */
  file: string;
  /** Sanitized SVG document. */
  svg: string;
  /** Strong ETag (quoted): plugin id, plugin version and a hash of the served bytes. */
  etag: string;
};

/** A plugin as found on disk. `placeholder` plugins have a type this service does not know: no icons, never served. */
export type Plugin = {
  id: string;
  name: string;
  version: string;
  description: string;
  type: string;
  placeholder: boolean;
  source: PluginSource | null;
  icons: PackIcon[];
};

/** Every plugin found at start-up, with the icon slug index that makes slugs unique across plugins. */
export type PluginCatalog = {
  plugins: readonly Plugin[];
  byId: ReadonlyMap<string, Plugin>;
  /** Icon slug -> the plugin that declares it and the icon. */
  bySlug: ReadonlyMap<string, { plugin: Plugin; icon: PackIcon }>;
};

export function buildCatalog(plugins: Plugin[]): PluginCatalog {
  const sorted = [...plugins].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const bySlug = new Map<string, { plugin: Plugin; icon: PackIcon }>();
  for (const plugin of sorted) for (const icon of plugin.icons) bySlug.set(icon.slug, { plugin, icon });
  return { plugins: sorted, byId: new Map(sorted.map((p) => [p.id, p])), bySlug };
}

export const emptyCatalog = (): PluginCatalog => buildCatalog([]);
