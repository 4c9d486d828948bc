import { XMLValidator } from "fast-xml-parser";
import { escapeXml, num } from "./escape.ts";
import type { IconResolver } from "./types.ts";

/** What a `Service Plugin IconPack` value resolved to, ready to place; null when it shows the type icon. */
export type PluginIcon = { href: string } | { open: string; inner: string } | null;

/**
 * Markup that would leak out of a nested <svg> into the drawing: style sheets apply document-wide, ids and classes
 * collide between icons (two icons' "cls-1" or "gradient-a") and with our own classes.
 */
const LEAKY = /<style[\s>]|\s(?:id|class)\s*=/i;

/**
 * Only an https URL or a same-origin relative path may be fetched by the viewer of the SVG: no other scheme
 * (javascript:, data:, http:, file:), no protocol-relative "//host", no backslashes browsers would read as "/".
 */
export function isSafeHref(href: string): boolean {
  if (!href || href.length > 2048 || /[\s\\]/.test(href)) return false;
  for (let i = 0; i < href.length; i++) if (href.charCodeAt(i) < 0x20 || href.charCodeAt(i) === 0x7f) return false;
  if (/^https:\/\/[^/?#]+/i.test(href)) {
    try {
      return new URL(href).protocol === "https:";
    } catch {
      return false;
    }
  }
  if (href.startsWith("//")) return false;
  // A scheme is anything before the first ":" that comes before any "/", "?" or "#".
  return !/^[^/?#]*:/.test(href);
}

const ROOT = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg\b([^>]*?)(\/?)>([\s\S]*)$/;
const PLACEMENT_ATTR = /\s(?:width|height|x|y|preserveAspectRatio)\s*=\s*(?:"[^"]*"|'[^']*')/g;
const ACTIVE = /<script|<foreignObject|\son[a-z]+\s*=|javascript:/i;

/**
 * An inline icon as a nested <svg> we can place: its own root attributes are kept (namespaces, viewBox) except
 * position and size, which become ours. The SVG arrives sanitized by the plugin host; this only refuses what
 * would break or activate the document (not well-formed, scripts), and then shows the type icon instead.
 */
function parseInlineSvg(svg: string): PluginIcon {
  if (svg.length > 200_000 || ACTIVE.test(svg)) return null;
  const m = ROOT.exec(svg);
  if (!m) return null;
  const [, attrs = "", selfClosing, rest = ""] = m;
  if (XMLValidator.validate(svg) !== true) return null;
  // Such an icon is kept whole as an image document of its own instead: nothing in it can reach the drawing.
  if (LEAKY.test(svg)) return { href: `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}` };
  let inner = "";
  if (!selfClosing) {
    const end = rest.lastIndexOf("</svg>");
    if (end < 0) return null;
    inner = rest.slice(0, end);
  }
  let kept = attrs.replace(PLACEMENT_ATTR, "");
  if (!/\sviewBox\s*=/.test(kept)) {
    const w = Number(/\swidth\s*=\s*["']?([\d.]+)/.exec(attrs)?.[1]);
    const h = Number(/\sheight\s*=\s*["']?([\d.]+)/.exec(attrs)?.[1]);
    kept += w > 0 && h > 0 ? ` viewBox="0 0 ${w} ${h}"` : ` viewBox="0 0 24 24"`;
  }
  if (!/\sxmlns\s*=/.test(kept)) kept += ` xmlns="http://www.w3.org/2000/svg"`;
  return { open: kept, inner };
}

/** Resolves once per distinct value per render; a throwing or odd resolver counts as "unresolved". */
export function pluginIconResolver(resolve: IconResolver | undefined): (value: string) => PluginIcon {
  const cache = new Map<string, PluginIcon>();
  return (value) => {
    if (!resolve || !value) return null;
    let icon = cache.get(value);
    if (icon !== undefined) return icon;
    icon = null;
    try {
      const r = resolve(value) as unknown;
      if (r && typeof r === "object") {
        const o = r as { href?: unknown; svg?: unknown };
        if (typeof o.href === "string" && isSafeHref(o.href.trim())) icon = { href: o.href.trim() };
        else if (typeof o.svg === "string") icon = parseInlineSvg(o.svg);
      }
    } catch {
      icon = null;
    }
    cache.set(value, icon);
    return icon;
  };
}

export function pluginIconMarkup(icon: Exclude<PluginIcon, null>, x: number, y: number, size: number): string {
  const place = `x="${num(x)}" y="${num(y)}" width="${num(size)}" height="${num(size)}"`;
  if ("href" in icon) {
    return `<image class="icon" ${place} href="${escapeXml(icon.href)}" preserveAspectRatio="xMidYMid meet"/>`;
  }
  return `<svg class="icon" ${place} preserveAspectRatio="xMidYMid meet"${icon.open}>${icon.inner}</svg>`;
}
