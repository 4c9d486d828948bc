import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { type ResvgRenderOptions, renderAsync } from "@resvg/resvg-js";
import type { SvgLayout } from "../types.ts";
import { withDrawingSlot } from "./drawing-slots.ts";
import { encodePng, encodePngBands } from "./encode-png.ts";
import { PNG_FONT_FAMILY, pngFontFiles } from "./fonts.ts";
import { withoutUnsafeIcons } from "./icon-safety.ts";
import { PictureMemory } from "./picture-memory.ts";
import { stitchTiles, tileDocuments } from "./tiles.ts";

/**
 * Tiles a large view is drawn in at once: one per core, at most four (libuv's default thread pool, which runs them).
 * PNG_TILES=1 draws every picture whole.
 */
const TILES = Math.max(1, Math.min(4, Number(process.env.PNG_TILES) || availableParallelism()));

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
 *
 * With the document's `layout` (renderViewSvg's), a large view is drawn as tiles at once, one per core (tiles.ts):
 * resvg draws one document on one thread, and most of a large view's time is resvg's. The picture is the same.
 */
export async function rasterizeSvg(svg: string, scale: number, layout?: SvgLayout): Promise<RasterizedSvg> {
  const key = `${scale}:${createHash("sha256").update(svg).digest("base64url")}`;
  const known = drawn.get(key);
  if (known) return known;
  // Plugin icons resvg would abort the process on are left out (icon-safety.ts); the tiles then come from the
  // document as drawn, not from the layout (which still holds them).
  const checked = await withoutUnsafeIcons(svg, (message) => process.emitWarning(message, "PluginIconWarning"));
  const drawable = checked.svg;
  const tiled = checked.removed > 0 ? undefined : layout;
  const result = await withDrawingSlot(async (): Promise<RasterizedSvg> => {
    const options: ResvgRenderOptions = {
      fitTo: { mode: "zoom", value: scale },
      font: {
        loadSystemFonts: false,
        fontFiles: pngFontFiles(drawable),
        defaultFontFamily: PNG_FONT_FAMILY,
        sansSerifFamily: PNG_FONT_FAMILY,
      },
    };
    const tiling = tiled && tileDocuments(tiled, scale, TILES);
    if (tiling) {
      const { width, height } = tiling;
      // A tile's document is sized in the picture's pixels (tiles.ts): drawn at that size.
      const own: ResvgRenderOptions = { ...options, fitTo: { mode: "original" } };
      const tiles = tiling.tiles.map(async (tile) => {
        const image = await renderAsync(tile.svg, own);
        const size = tiling.axis === "x" ? [tile.to - tile.from, height] : [width, tile.to - tile.from];
        if (image.width !== size[0] || image.height !== size[1]) {
          throw new Error(`a tile came out ${image.width} × ${image.height}, not ${size.join(" × ")}`);
        }
        // RenderedImage.pixels copies the picture out of resvg on each read: once.
        return { pixels: image.pixels, height: image.height };
      });
      // Bands of rows are compressed as each is drawn; strips of columns once all are there.
      const png =
        tiling.axis === "y"
          ? await encodePngBands(tiles, width)
          : await encodePng(
              stitchTiles(
                tiling,
                (await Promise.all(tiles)).map((tile) => tile.pixels),
              ),
              width,
              height,
              TILES,
            );
      return { png, width, height };
    }
    const image = await renderAsync(drawable, options);
    return {
      png: await encodePng(image.pixels, image.width, image.height, TILES),
      width: image.width,
      height: image.height,
    };
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
