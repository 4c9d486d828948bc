import { createHash } from "node:crypto";
import { renderAsync } from "@resvg/resvg-js";
import { withDrawingSlot } from "./drawing-slots.ts";
import { encodePng } from "./encode-png.ts";
import { PNG_FONT_FAMILY, pngFontFiles } from "./fonts.ts";
import { PictureMemory } from "./picture-memory.ts";

/**
 * Largest picture drawn, in pixels (width × height): 16 megapixels, 64 MB of RGBA while drawing (plus the PNG being
 * encoded). 4,000 × 4,000 pixels is more than any screen or slide shows, and a 2,000 × 1,400 view still gets scale
 * 2.8; 64 megapixels (256 MB a drawing) let six requests exhaust a tenant's memory.
 */
export const MAX_PNG_PIXELS = 16_000_000;

export type RasterizedSvg = { png: Buffer; width: number; height: number };

/**
 * An SVG document of ours as PNG, drawn by resvg (a Rust SVG renderer, prebuilt binary from the npm registry) with
 * the fonts the project ships (no system fonts), so that the same view gives the same picture on every machine.
 * `scale` multiplies the SVG's own size. Plugin icons given as URLs are not fetched (the element keeps its frame and
 * label); inline ones are drawn.
 *
 * resvg's own thread draws the picture and zlib's thread pool compresses the PNG (encode-png.ts), so a large view
 * does not stall every other request of the process for the 100 ms or so it takes (most of it is shaping the labels'
 * text); copying the rows and un-premultiplying partly transparent pixels stay on the main thread. The same document at the same scale is drawn once:
 * an assistant looks at a view again and again between small edits, and the SVG (every label, position and colour
 * of the view) is the whole key, so any change to the view draws it anew. A drawing not in that cache waits for one
 * of the process's drawing slots (drawing-slots.ts: 429 when too many are drawn and waiting).
 */
export async function rasterizeSvg(svg: string, scale: number): Promise<RasterizedSvg> {
  const key = `${scale}:${createHash("sha256").update(svg).digest("base64url")}`;
  const known = drawn.get(key);
  if (known) return known;
  const result = await withDrawingSlot(async (): Promise<RasterizedSvg> => {
    const image = await renderAsync(svg, {
      fitTo: { mode: "zoom", value: scale },
      font: {
        loadSystemFonts: false,
        fontFiles: pngFontFiles(svg),
        defaultFontFamily: PNG_FONT_FAMILY,
        sansSerifFamily: PNG_FONT_FAMILY,
      },
    });
    return { png: await encodePng(image.pixels, image.width, image.height), width: image.width, height: image.height };
  });
  drawn.set(key, result, result.png.byteLength);
  return result;
}

/** Pictures kept by the document's hash and the scale: 64 at most, and at most 32 MB. */
const drawn = new PictureMemory<RasterizedSvg>(32 * 1024 * 1024, 64);

/** How many pictures the cache holds (for tests). */
export function rasterCacheSize(): number {
  return drawn.size;
}

/** Forgets every drawn picture, here and in every other picture memory (benches measure a first drawing with it). */
export function clearRasterCache(): void {
  for (const memory of PictureMemory.all) memory.clear();
}
