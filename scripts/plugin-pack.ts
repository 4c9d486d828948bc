// Builds an icon-pack plugin folder from a cloud vendor's architecture icon set, as the operator downloaded it.
//
//   ./pnpm plugin:pack <folder or .zip of SVGs> --id aws --name "AWS Architecture Icons" [--out plugins/aws]
//     [--version 1.0.0] [--size 48]
//
// AWS, Azure and Google Cloud publish their icon sets for use in diagrams, but their terms do not let this project
// ship them: an operator brings the set and deploys the folder this writes (plugins/<id>/, then a deployment).
// Slugs and titles come from the file names ("Arch_Amazon-EC2_48.svg" -> aws-amazon-ec2 "Amazon EC2",
// "10021-icon-service-Virtual-Machine.svg" -> "Virtual Machine", "compute/Compute-Engine.svg" -> "Compute Engine").
// Where a set ships one icon in several sizes (AWS: 16, 32, 48, 64) one size is kept (--size, default 48, else the
// largest). Every SVG goes through the shared sanitizer. What is left out (not an SVG, a duplicate, unsafe content,
// too large) is reported, one line each, and in <out>/pack-report.json.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isZip, readZip } from "../packages/model/src/transfer/read-zip.ts";
import { sanitizeSvg } from "../packages/shared/src/svg-sanitize.ts";

export type PackOptions = { id: string; name: string; out: string; version?: string; size?: number };
export type Skipped = { file: string; reason: string };
export type PackReport = { id: string; icons: number; skipped: Skipped[] };

/** Largest icon the plugin loader accepts (512 KiB). */
export const MAX_ICON_BYTES = 512 * 1024;
const SIZES = /(?:^|[_-])(16|20|24|32|48|64|96|128|256|512)(?:px)?(?=$|[_-])/;
const UNSAFE = /<script\b|\son[a-z]+\s*=|javascript:|<foreignObject\b|<!ENTITY|<!DOCTYPE/i;

type Source = { file: string; bytes: Uint8Array };

function walk(dir: string, base = dir): Source[] {
  const out: Source[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full, base));
    else if (entry.isFile())
      out.push({ file: path.relative(base, full).split(path.sep).join("/"), bytes: readFileSync(full) });
  }
  return out;
}

function sourcesOf(input: string): Source[] {
  if (statSync(input).isDirectory()) return walk(input);
  const bytes = new Uint8Array(readFileSync(input));
  if (!isZip(bytes)) throw new Error(`${input}: neither a folder nor a ZIP archive`);
  return readZip(bytes, { maxTotalBytes: 2 * 1024 * 1024 * 1024, maxEntries: 100_000 }).map((e) => ({
    file: e.name,
    bytes: e.bytes,
  }));
}

/** The icon's size in its path (an AWS "48/" folder or "_48" suffix), if any. */
function sizeOf(file: string): number | null {
  for (const part of file.split("/").reverse()) {
    const m = part.replace(/\.svg$/i, "").match(SIZES);
    if (m) return Number(m[1]);
  }
  return null;
}

/** A readable title from a vendor's file name: prefixes, numbers, sizes and colour variants taken off. */
export function titleOf(file: string): string {
  let base = (file.split("/").pop() ?? file).replace(/\.svg$/i, "");
  base = base
    .replace(/^(?:Arch|Res|Arch-Category|Arch-Group)_/i, "") // AWS
    .replace(/^\d+-icon-service-/i, "") // Azure
    .replace(/^\d+-/, "")
    .replace(/[_-](?:16|20|24|32|48|64|96|128|256|512)(?:px)?(?=$|[_-])/gi, "")
    .replace(/[_-](?:light|dark|color|colour|bg|white|black)$/i, "")
    .replace(/[_-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return base || "Icon";
}

export function slugOf(id: string, title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${id}-${words || "icon"}`.slice(0, 128).replace(/-+$/, "");
}

/** Writes <out>/plugin.json and <out>/icons/*.svg from the vendor's set; answers what went in and what was left out. */
export function packIcons(input: string, opts: PackOptions): PackReport {
  if (!/^[a-z0-9](?:[a-z0-9_-]{0,126}[a-z0-9])?$/.test(opts.id)) {
    throw new Error(`--id '${opts.id}': lower-case letters, digits, '-' or '_'`);
  }
  const skipped: Skipped[] = [];
  const candidates = new Map<string, { file: string; title: string; svg: string; size: number | null }[]>();
  for (const { file, bytes } of sourcesOf(input)) {
    if (file.split("/").some((p) => p.startsWith(".") || p === "__MACOSX")) continue;
    if (!/\.svg$/i.test(file)) {
      skipped.push({ file, reason: "not an SVG file" });
      continue;
    }
    if (bytes.length > MAX_ICON_BYTES) {
      skipped.push({ file, reason: `too large (${bytes.length} bytes; at most ${MAX_ICON_BYTES})` });
      continue;
    }
    const raw = new TextDecoder().decode(bytes);
    if (!/<svg[\s>/]/i.test(raw)) {
      skipped.push({ file, reason: "not an SVG document" });
      continue;
    }
    if (UNSAFE.test(raw)) {
      skipped.push({ file, reason: "unsafe content (script, event handler, javascript: link, foreignObject or DTD)" });
      continue;
    }
    const title = titleOf(file);
    const slug = slugOf(opts.id, title);
    const list = candidates.get(slug) ?? [];
    list.push({ file, title, svg: sanitizeSvg(raw), size: sizeOf(file) });
    candidates.set(slug, list);
  }
  const want = opts.size ?? 48;
  const icons: { slug: string; name: string; file: string; svg: string }[] = [];
  for (const [slug, list] of [...candidates].sort(([a], [b]) => a.localeCompare(b))) {
    const chosen =
      list.find((c) => c.size === want) ??
      [...list].sort((a, b) => (b.size ?? 0) - (a.size ?? 0) || a.file.localeCompare(b.file))[0]!;
    for (const other of list) {
      if (other === chosen) continue;
      const sized = other.size !== null && chosen.size !== null && other.size !== chosen.size;
      skipped.push({
        file: other.file,
        reason: sized
          ? `another size of ${chosen.file} (kept size ${chosen.size})`
          : `duplicate of ${chosen.file} (same slug ${slug})`,
      });
    }
    icons.push({ slug, name: chosen.title, file: `icons/${slug}.svg`, svg: chosen.svg });
  }
  if (icons.length === 0) throw new Error(`${input}: no usable SVG icon found`);
  if (icons.length > 10_000) throw new Error(`${icons.length} icons: a plugin holds at most 10000`);
  if (existsSync(opts.out)) rmSync(path.join(opts.out, "icons"), { recursive: true, force: true });
  mkdirSync(path.join(opts.out, "icons"), { recursive: true });
  for (const icon of icons) writeFileSync(path.join(opts.out, icon.file), icon.svg);
  const manifest = {
    id: opts.id,
    name: opts.name,
    version: opts.version ?? "1.0.0",
    description: `${icons.length} icons packed by pnpm plugin:pack from ${path.basename(input)}. The vendor's terms apply: use them in architecture diagrams; do not redistribute.`,
    type: "icon-pack",
    icons: icons.map(({ slug, name, file }) => ({ slug, name, file })),
  };
  writeFileSync(path.join(opts.out, "plugin.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const report = { id: opts.id, icons: icons.length, skipped };
  writeFileSync(path.join(opts.out, "pack-report.json"), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

function main(argv: string[]) {
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith("--")) args[a.slice(2)] = argv[++i] ?? "";
    else positional.push(a);
  }
  const input = positional[0];
  if (!input || !args.id || !args.name) {
    console.error(
      'usage: pnpm plugin:pack <folder or zip of SVGs> --id aws --name "AWS Architecture Icons" [--out plugins/aws] [--version 1.0.0] [--size 48]',
    );
    process.exit(2);
  }
  const out = args.out ?? path.join("plugins", args.id);
  const report = packIcons(input, {
    id: args.id,
    name: args.name,
    out,
    version: args.version,
    size: args.size ? Number(args.size) : undefined,
  });
  for (const s of report.skipped) console.log(`skipped ${s.file}: ${s.reason}`);
  console.log(
    `${out}: ${report.icons} icons, ${report.skipped.length} files skipped (see ${path.join(out, "pack-report.json")})`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
}
