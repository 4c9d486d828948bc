import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// The shared sanitizer, also used by scripts/build-icon-packs.ts (not yet exported from @ams/shared's index).
import { sanitizeSvg } from "@ams/shared";
import { buildCatalog, type PackIcon, type Plugin, type PluginCatalog } from "./catalog.ts";
import { describeIssues, ICON_PACK_TYPE, IconPackManifest, PluginManifestBase } from "./manifest.ts";

/** The repository's plugins/ folder: the built-in packs. */
export const defaultPluginsRoot = fileURLToPath(new URL("../../../../plugins", import.meta.url));

/** Start-up failure: a bad manifest, a missing icon file or an icon slug declared twice. Lists every problem found. */
export class PluginLoadError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Plugins could not be loaded:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "PluginLoadError";
    this.problems = problems;
  }
}

export type LoadPluginsOptions = {
  /** Folder holding one sub-folder per plugin; default the repository's plugins/. */
  root?: string;
  /** Largest icon file accepted, in bytes (default 512 KiB). */
  maxIconBytes?: number;
};

/** How a file is named in error messages: relative to the working directory when that is shorter. */
function display(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith("..") ? rel : file;
}

function etagFor(plugin: { id: string; version: string }, svg: string): string {
  const hash = createHash("sha256").update(svg).digest("base64url").slice(0, 16);
  return `"${plugin.id}@${plugin.version}-${hash}"`;
}

function readIcon(
  dir: string,
  realDir: string,
  plugin: { id: string; version: string },
  icon: { slug: string; name: string; file: string },
  maxBytes: number,
): PackIcon | string {
  const file = path.join(dir, icon.file);
  const where = `plugin "${plugin.id}", icon "${icon.slug}" (${display(file)})`;
  let raw: string;
  try {
    // A symlink must not lead out of the plugin folder.
    const real = realpathSync(file);
    if (!real.startsWith(realDir + path.sep)) return `${where}: the file lies outside the plugin folder`;
    if (!statSync(real).isFile()) return `${where}: not a file`;
    if (statSync(real).size > maxBytes) return `${where}: larger than ${maxBytes} bytes`;
    raw = readFileSync(real, "utf8");
  } catch (err) {
    return `${where}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  if (!/<svg[\s>/]/i.test(raw)) return `${where}: not an SVG document`;
  const svg = sanitizeSvg(raw);
  return { slug: icon.slug, name: icon.name, file: icon.file, svg, etag: etagFor(plugin, svg) };
}

function readManifest(dir: string, folder: string, maxIconBytes: number, problems: string[]): Plugin | null {
  const manifestPath = path.join(dir, "plugin.json");
  const where = display(manifestPath);
  if (!existsSync(manifestPath)) {
    problems.push(`${display(dir)}: no plugin.json (every folder under the plugins root is a plugin)`);
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch (err) {
    problems.push(`${where}: not valid JSON (${(err as Error).message})`);
    return null;
  }
  const base = PluginManifestBase.safeParse(json);
  if (!base.success) {
    for (const line of describeIssues(base.error)) problems.push(`${where}: ${line}`);
    return null;
  }
  if (base.data.id !== folder) {
    problems.push(`${where}: id "${base.data.id}" must equal its folder name "${folder}"`);
    return null;
  }
  const common = {
    id: base.data.id,
    name: base.data.name,
    version: base.data.version,
    description: base.data.description,
    type: base.data.type,
    source: base.data.source ?? null,
  };
  // Another type is listed so an Admin sees it, but nothing of it is read or served.
  if (base.data.type !== ICON_PACK_TYPE) return { ...common, placeholder: true, icons: [] };

  const pack = IconPackManifest.safeParse(json);
  if (!pack.success) {
    for (const line of describeIssues(pack.error)) problems.push(`${where}: ${line}`);
    return null;
  }
  const realDir = realpathSync(dir);
  const icons: PackIcon[] = [];
  for (const entry of pack.data.icons) {
    const icon = readIcon(dir, realDir, common, entry, maxIconBytes);
    if (typeof icon === "string") problems.push(icon);
    else icons.push(icon);
  }
  return { ...common, placeholder: false, icons };
}

/**
 * Reads every plugins/<id>/plugin.json once, at start-up: validates the manifests, reads and sanitizes every icon
 * and keeps it in memory. Throws a PluginLoadError naming each problem, notably both places of an icon slug that
 * two icons declare. The enabled flags are not part of the catalog: they live in the database (PluginRegistry).
 */
export function loadPluginCatalog(opts: LoadPluginsOptions = {}): PluginCatalog {
  const root = path.resolve(opts.root ?? defaultPluginsRoot);
  const maxIconBytes = opts.maxIconBytes ?? 512 * 1024;
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new PluginLoadError([`${display(root)}: the plugins folder does not exist`]);

  const problems: string[] = [];
  const plugins: Plugin[] = [];
  const folders = readdirSync(root, { withFileTypes: true })
    .filter(
      (d) =>
        !d.name.startsWith(".") &&
        (d.isDirectory() || (d.isSymbolicLink() && statSync(path.join(root, d.name)).isDirectory())),
    )
    .map((d) => d.name)
    .sort();
  for (const folder of folders) {
    const plugin = readManifest(path.join(root, folder), folder, maxIconBytes, problems);
    if (plugin) plugins.push(plugin);
  }

  const seen = new Map<string, { plugin: Plugin; icon: PackIcon }>();
  for (const plugin of plugins) {
    for (const icon of plugin.icons) {
      const first = seen.get(icon.slug);
      if (first) {
        const place = (p: Plugin, i: PackIcon) => `plugin "${p.id}" (${display(path.join(root, p.id, i.file))})`;
        problems.push(
          `icon slug "${icon.slug}" is declared twice: by ${place(first.plugin, first.icon)} and by ${place(plugin, icon)}`,
        );
      } else {
        seen.set(icon.slug, { plugin, icon });
      }
    }
  }
  if (problems.length > 0) throw new PluginLoadError(problems);
  return buildCatalog(plugins);
}
