import { type Database, pluginStates } from "@ams/db";
import { createLogger, type Logger } from "@ams/shared";
import type { PluginCatalog } from "./catalog.ts";
import { emptyCatalog } from "./catalog.ts";
import { type LoadPluginsOptions, loadPluginCatalog } from "./load-catalog.ts";
import { type IconResolution, iconUrlOf, resolveIconValue, toRenderIcon } from "./resolve-icon.ts";

export type PluginRegistryOptions = {
  catalog: PluginCatalog;
  database: Database;
  /**
   * How long the cached enabled flags are trusted before the database is read again (default 5 s). A change made
   * through this registry applies at once; a change made by another replica is seen within this time.
   */
  ttlMs?: number;
  now?: () => number;
  log?: Logger;
};

/**
 * The plugins found at start-up plus their enabled flags from the database. Everything that reads a flag is
 * synchronous (the renderer's icon resolver is); the flags are refreshed by `refreshIfStale()`, which the HTTP layer
 * awaits once per request and the resolver starts in the background when the cache has gone stale.
 */
export type PluginRegistry = {
  readonly catalog: PluginCatalog;
  isEnabled(pluginId: string): boolean;
  setEnabled(pluginId: string, enabled: boolean, updatedBy: string | null): Promise<void>;
  /** Reads the flags again now. */
  refresh(): Promise<void>;
  /** Reads the flags again when they are older than the TTL; one read at a time. */
  refreshIfStale(): Promise<void>;
  /** A `Service Plugin IconPack` value: enabled plugin icon, legacy URL/path, or undefined (type icon). */
  resolve(value: string): IconResolution | undefined;
  /** The renderer's IconResolver: inline sanitized SVG for a plugin icon, href for a legacy URL/path. */
  resolveIcon: (value: string) => { href: string } | { svg: string } | undefined;
  /** The UI's view of the same resolution: a URL to load the icon from. */
  iconUrl: (value: string) => string | undefined;
};

export function createPluginRegistry(opts: PluginRegistryOptions): PluginRegistry {
  const { catalog, database } = opts;
  const ttlMs = opts.ttlMs ?? 5000;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? createLogger({ service: "tenant" });

  let enabled = new Set<string>();
  let loadedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | null = null;
  // Bumped by every local write: a read that started before it must not undo it.
  let writes = 0;

  async function readFlags(): Promise<void> {
    const started = writes;
    const at = now();
    try {
      const rows = await database.db
        .select({ id: pluginStates.pluginId, enabled: pluginStates.enabled })
        .from(pluginStates);
      if (writes !== started) return; // a local write overtook this read; the next request reads again
      enabled = new Set(rows.filter((r) => r.enabled && catalog.byId.has(r.id)).map((r) => r.id));
      loadedAt = at;
    } catch (err) {
      // Keep serving the last known flags; try again after another TTL instead of on every request.
      loadedAt = at;
      log.error("plugin flags could not be read", { err });
    }
  }

  function refresh(): Promise<void> {
    if (catalog.plugins.length === 0) return Promise.resolve();
    inFlight ??= readFlags().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  const isStale = () => now() - loadedAt >= ttlMs;
  const refreshIfStale = () => (isStale() ? refresh() : Promise.resolve());

  function isEnabled(pluginId: string): boolean {
    return enabled.has(pluginId);
  }

  function resolve(value: string): IconResolution | undefined {
    if (isStale()) void refresh();
    return resolveIconValue(catalog, isEnabled, value);
  }

  return {
    catalog,
    isEnabled,
    refresh,
    refreshIfStale,
    async setEnabled(pluginId, value, updatedBy) {
      await database.db
        .insert(pluginStates)
        .values({ pluginId, enabled: value, updatedBy, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: pluginStates.pluginId,
          set: { enabled: value, updatedBy, updatedAt: new Date() },
        });
      writes++;
      const next = new Set(enabled);
      if (value) next.add(pluginId);
      else next.delete(pluginId);
      enabled = next;
    },
    resolve,
    resolveIcon: (value) => toRenderIcon(resolve(value)),
    iconUrl: (value) => iconUrlOf(resolve(value)),
  };
}

/** Start-up: reads the plugin folder (throws PluginLoadError on any problem) and the enabled flags. */
export async function loadPluginRegistry(
  opts: LoadPluginsOptions & Omit<PluginRegistryOptions, "catalog">,
): Promise<PluginRegistry> {
  const registry = createPluginRegistry({ ...opts, catalog: loadPluginCatalog(opts) });
  await registry.refresh();
  return registry;
}

/** A registry without plugins, for an app composed without any. */
export const emptyPluginRegistry = (database: Database): PluginRegistry =>
  createPluginRegistry({ catalog: emptyCatalog(), database });
