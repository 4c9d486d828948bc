import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { woffToSfnt } from "./woff.ts";

/**
 * The fonts every PNG is drawn with, whatever the machine has installed: Arimo (metric-compatible with Arial, the
 * face the SVG's text measurement assumes) from the @fontsource/arimo package, regular and bold, upright and
 * italic, in the Latin, Latin Extended, Cyrillic, Greek and Hebrew subsets. The package ships WOFF; each file is
 * converted once to TrueType in a cache folder named after the package version.
 */
export const PNG_FONT_FAMILY = "Arimo";

const SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "greek-ext", "hebrew"];
const FACES = ["400-normal", "400-italic", "700-normal", "700-italic"];

let cached: { file: string; subset: string; face: string }[] | undefined;

/**
 * Greek, Cyrillic and Hebrew letters: the scripts of the other subsets. Punctuation such as the ellipsis of a cut
 * label is in the Latin subset, and scripts that Arimo lacks (CJK, Arabic…) gain nothing from loading more faces.
 */
const NON_LATIN = /[\u0370-\u05ff\u1c80-\u1c8f\u1f00-\u1fff\u2de0-\u2dff\ua640-\ua69f\ufb1d-\ufb4f]/;

/**
 * The font files a document needs: loading a face costs the rasterizer time on every picture, so the Latin faces
 * always, italics only when the document asks for them, the other scripts only when its text has such characters.
 */
export function pngFontFiles(svg?: string): string[] {
  const all = allFontFiles();
  if (svg === undefined) return all.map((f) => f.file);
  const italic = svg.includes("italic");
  const scripts = NON_LATIN.test(svg);
  return all
    .filter((f) => (italic || f.face.endsWith("normal")) && (scripts || f.subset.startsWith("latin")))
    .map((f) => f.file);
}

function allFontFiles() {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@fontsource/arimo/package.json");
  const version = (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
  const source = join(dirname(manifest), "files");
  const target = join(tmpdir(), `ams-fonts-arimo-${version}`);
  mkdirSync(target, { recursive: true });
  const files: { file: string; subset: string; face: string }[] = [];
  for (const subset of SUBSETS) {
    for (const face of FACES) {
      const woff = join(source, `arimo-${subset}-${face}.woff`);
      if (!existsSync(woff)) continue;
      const ttf = join(target, `arimo-${subset}-${face}.ttf`);
      if (!existsSync(ttf)) {
        // Written under a temporary name and renamed: a concurrent process never reads half a font.
        const partial = `${ttf}.${process.pid}.tmp`;
        writeFileSync(partial, woffToSfnt(readFileSync(woff)));
        renameSync(partial, ttf);
      }
      files.push({ file: ttf, subset, face });
    }
  }
  if (files.length === 0) throw new Error(`no Arimo fonts found in ${source}`);
  cached = files;
  return files;
}
