import { Resvg } from "@resvg/resvg-js";
import { PNG_FONT_FAMILY, pngFontFiles } from "./fonts.ts";

/** Largest picture drawn, in pixels (width × height): 64 megapixels, about 256 MB of RGBA while drawing. */
export const MAX_PNG_PIXELS = 64_000_000;

/**
 * An SVG document of ours as PNG, drawn by resvg (a Rust SVG renderer, prebuilt binary from the npm registry) with
 * the fonts the project ships (no system fonts), so that the same view gives the same picture on every machine.
 * `scale` multiplies the SVG's own size. Plugin icons given as URLs are not fetched (the element keeps its frame and
 * label); inline ones are drawn.
 */
export function rasterizeSvg(svg: string, scale: number): { png: Buffer; width: number; height: number } {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: scale },
    font: {
      loadSystemFonts: false,
      fontFiles: pngFontFiles(svg),
      defaultFontFamily: PNG_FONT_FAMILY,
      sansSerifFamily: PNG_FONT_FAMILY,
    },
  });
  const image = resvg.render();
  return { png: image.asPng(), width: image.width, height: image.height };
}
