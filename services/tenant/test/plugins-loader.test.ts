import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildCatalog,
  defaultPluginsRoot,
  loadPluginCatalog,
  PluginLoadError,
  resolveIconValue,
  toRenderIcon,
} from "@ams/model";
import { sanitizeSvg } from "@ams/shared";
import { afterAll, describe, expect, test } from "vitest";
import { pluginIconResolver } from "../../../packages/model/src/render/plugin-icon.ts";

const fixtures = fileURLToPath(new URL("./fixtures/plugins", import.meta.url));
const repoPlugins = fileURLToPath(new URL("../../../plugins", import.meta.url));

/** Runs the loader and returns its error, failing the test when it loads. */
function loadError(root: string): PluginLoadError {
  try {
    loadPluginCatalog({ root });
  } catch (err) {
    expect(err).toBeInstanceOf(PluginLoadError);
    return err as PluginLoadError;
  }
  throw new Error(`${root} loaded, but it should not`);
}

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** A plugins root in a temporary folder: { "<id>/plugin.json": {...}, "<id>/icons/x.svg": "<svg .../>" }. */
function tempRoot(files: Record<string, unknown>): string {
  const root = mkdtempSync(path.join(tmpdir(), "ams-plugins-"));
  temps.push(root);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  }
  return root;
}

const ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M2 2h20v20H2z"/></svg>';
const manifest = (id: string, icons: { slug: string; name: string; file: string }[], extra: object = {}) => ({
  id,
  name: id,
  version: "1.0.0",
  description: "",
  type: "icon-pack",
  icons,
  ...extra,
});

describe("the built-in icon packs (plugins/)", () => {
  const catalog = loadPluginCatalog();
  const declared = readdirSync(repoPlugins, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("."))
    .map((d) => ({
      id: d.name,
      json: JSON.parse(readFileSync(path.join(repoPlugins, d.name, "plugin.json"), "utf8")),
    }));

  test("the default root is the repository's plugins/ folder", () => {
    expect(path.resolve(defaultPluginsRoot)).toBe(path.resolve(repoPlugins));
  });

  test("three icon packs load with 282, 638 and 45 icons, as their manifests declare", () => {
    expect(catalog.plugins).toHaveLength(3);
    expect(catalog.plugins.every((p) => p.type === "icon-pack" && !p.placeholder)).toBe(true);
    for (const { id, json } of declared) {
      expect(catalog.byId.get(id)?.icons.length, id).toBe(json.icons.length);
      expect(catalog.byId.get(id)?.version).toBe(json.version);
    }
    expect(catalog.plugins.map((p) => p.icons.length).sort((a, b) => a - b)).toEqual([45, 282, 638]);
  });

  test("icon slugs are unique across all packs", () => {
    const all = catalog.plugins.flatMap((p) => p.icons.map((i) => i.slug));
    expect(all).toHaveLength(282 + 638 + 45);
    expect(new Set(all).size).toBe(all.length);
    expect(catalog.bySlug.size).toBe(all.length);
  });

  test("every icon is held sanitized, with an ETag tied to its pack's id and version", () => {
    for (const p of catalog.plugins) {
      for (const icon of p.icons) {
        expect(icon.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), icon.slug).toBe(true);
        expect(sanitizeSvg(icon.svg), icon.slug).toBe(icon.svg);
        expect(icon.svg).not.toMatch(/<script|<foreignObject|\son[a-z]+=|javascript:/i);
        expect(icon.etag.startsWith(`"${p.id}@${p.version}-`)).toBe(true);
      }
    }
  });

  test("every icon is accepted by the renderer as an inline icon, not refused into the type icon", () => {
    for (const p of catalog.plugins) {
      for (const icon of p.icons) {
        const placed = pluginIconResolver(() => ({ svg: icon.svg }))(icon.slug);
        expect(placed, icon.slug).not.toBeNull();
        expect(placed && "open" in placed, icon.slug).toBe(true);
      }
    }
  });
});

describe("loader", () => {
  test("a pack's SVG with script, event handlers and external references is held clean", () => {
    const catalog = loadPluginCatalog({ root: path.join(fixtures, "basic") });
    const evil = catalog.bySlug.get("test-evil")?.icon.svg ?? "";
    expect(evil).toContain("<circle");
    expect(evil).not.toMatch(
      /script|onload|onclick|onmouseover|javascript:|evil\.example|foreignObject|<iframe|<image|<!DOCTYPE|<!ENTITY/i,
    );
  });

  test("a plugin of another type is listed as a placeholder with no icons", () => {
    const catalog = loadPluginCatalog({ root: path.join(fixtures, "basic") });
    expect(catalog.plugins.map((p) => p.id)).toEqual(["future-theme", "test-pack"]);
    expect(catalog.byId.get("future-theme")).toMatchObject({ type: "color-theme", placeholder: true, icons: [] });
    // Its manifest lists an icon (whose file does not even exist): never read, never indexed.
    expect(catalog.bySlug.has("theme-dark")).toBe(false);
  });

  test("an icon slug declared by two plugins stops start-up, naming both plugins and both files", () => {
    const err = loadError(path.join(fixtures, "duplicate"));
    expect(err.problems).toHaveLength(1);
    const [problem] = err.problems;
    expect(problem).toContain('"shared-cloud"');
    expect(problem).toContain('plugin "pack-a"');
    expect(problem).toContain(path.join("pack-a", "icons", "cloud-a.svg"));
    expect(problem).toContain('plugin "pack-b"');
    expect(problem).toContain(path.join("pack-b", "icons", "cloud-b.svg"));
    expect(err.message).toContain("shared-cloud");
  });

  test("a slug declared twice in one plugin is refused too", () => {
    const root = tempRoot({
      "twice/plugin.json": manifest("twice", [
        { slug: "x-one", name: "One", file: "icons/a.svg" },
        { slug: "x-one", name: "Again", file: "icons/b.svg" },
      ]),
      "twice/icons/a.svg": ICON,
      "twice/icons/b.svg": ICON,
    });
    expect(loadError(root).problems[0]).toMatch(/"x-one" is declared twice.*icons\/a\.svg.*icons\/b\.svg/);
  });

  test("the manifest is validated: id equals the folder, fields and icons have their shape", () => {
    const root = tempRoot({
      "folder-name/plugin.json": manifest("other-name", []),
      "no-version/plugin.json": { ...manifest("no-version", []), version: undefined },
      "bad-icons/plugin.json": manifest("bad-icons", [{ slug: "Not A Slug", name: "x", file: "icons/a.svg" }]),
      "escape/plugin.json": manifest("escape", [{ slug: "esc", name: "x", file: "../folder-name/plugin.json" }]),
      "missing-file/plugin.json": manifest("missing-file", [{ slug: "gone", name: "Gone", file: "icons/gone.svg" }]),
      "not-svg/plugin.json": manifest("not-svg", [{ slug: "png", name: "Png", file: "icons/a.svg" }]),
      "not-svg/icons/a.svg": "\u0089PNG not an svg",
      "not-json/plugin.json": "{ nope",
      "empty-folder/README": "no manifest here",
    });
    const problems = loadError(root).problems.join("\n");
    expect(problems).toContain('id "other-name" must equal its folder name "folder-name"');
    expect(problems).toMatch(/no-version.*version/);
    expect(problems).toMatch(/bad-icons.*icons\.0\.slug/);
    expect(problems).toMatch(/escape.*icons\.0\.file/);
    expect(problems).toMatch(/plugin "missing-file", icon "gone".*cannot be read/);
    expect(problems).toMatch(/plugin "not-svg", icon "png".*not an SVG document/);
    expect(problems).toMatch(/not-json.*not valid JSON/);
    expect(problems).toMatch(/empty-folder: no plugin\.json/);
  });

  test("a missing plugins folder stops start-up", () => {
    expect(loadError(path.join(fixtures, "does-not-exist")).problems[0]).toContain("does not exist");
  });

  test("the ETag changes with the plugin version", () => {
    const icons = [{ slug: "v-icon", name: "V", file: "icons/a.svg" }];
    const v1 = tempRoot({ "pack/plugin.json": manifest("pack", icons), "pack/icons/a.svg": ICON });
    const v2 = tempRoot({
      "pack/plugin.json": manifest("pack", icons, { version: "1.0.1" }),
      "pack/icons/a.svg": ICON,
    });
    const e1 = loadPluginCatalog({ root: v1 }).bySlug.get("v-icon")?.icon.etag;
    const e2 = loadPluginCatalog({ root: v2 }).bySlug.get("v-icon")?.icon.etag;
    expect(e1).toMatch(/^"pack@1\.0\.0-[A-Za-z0-9_-]{16}"$/);
    expect(e2).toMatch(/^"pack@1\.0\.1-/);
  });
});

describe("resolving a `Service Plugin IconPack` value", () => {
  const catalog = loadPluginCatalog({ root: path.join(fixtures, "basic") });
  const enabled = new Set<string>(["test-pack"]);
  const resolve = (v: string, on = enabled) => toRenderIcon(resolveIconValue(catalog, (id) => on.has(id), v));

  test("a slug of an enabled plugin resolves to its sanitized SVG", () => {
    expect(resolve("test-gear")).toEqual({ svg: catalog.bySlug.get("test-gear")?.icon.svg });
    expect(resolve("  test-gear ")).toEqual({ svg: catalog.bySlug.get("test-gear")?.icon.svg });
  });

  test("a slug of a disabled plugin, an unknown slug or a placeholder's slug is unresolved", () => {
    expect(resolve("test-gear", new Set())).toBeUndefined();
    expect(resolve("no-such-icon")).toBeUndefined();
    expect(resolve("theme-dark", new Set(["test-pack", "future-theme"]))).toBeUndefined();
    expect(resolve("")).toBeUndefined();
  });

  test("a legacy https URL or same-origin relative path is kept as href; other schemes are not", () => {
    expect(resolve("https://cdn.example.com/icons/crm.svg")).toEqual({ href: "https://cdn.example.com/icons/crm.svg" });
    expect(resolve("/static/icons/crm.png")).toEqual({ href: "/static/icons/crm.png" });
    expect(resolve("icons/crm.png")).toEqual({ href: "icons/crm.png" });
    for (const bad of [
      "http://cdn.example.com/x.svg",
      "javascript:alert(1)",
      "data:image/svg+xml,<svg/>",
      "//evil.example/x.svg",
      "file:///etc/passwd",
      "a b.png",
    ]) {
      expect(resolve(bad), bad).toBeUndefined();
    }
  });

  test("an empty catalog resolves nothing but legacy references", () => {
    const empty = buildCatalog([]);
    expect(resolveIconValue(empty, () => true, "test-gear")).toBeUndefined();
    expect(resolveIconValue(empty, () => true, "https://x.example/a.svg")).toEqual({
      kind: "legacy",
      href: "https://x.example/a.svg",
    });
  });
});
