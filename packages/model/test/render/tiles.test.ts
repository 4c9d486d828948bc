import { inflateSync } from "node:zlib";
import { renderAsync } from "@resvg/resvg-js";
import { PNG } from "pngjs";
import { describe, expect, test } from "vitest";
import { adler32, adler32Combine, encodePng, encodePngBands } from "../../src/render/png/encode-png.ts";
import { PNG_FONT_FAMILY, pngFontFiles } from "../../src/render/png/fonts.ts";
import { clearRasterCache, rasterizeSvg } from "../../src/render/png/rasterize.ts";
import { stitchTiles, tileDocuments } from "../../src/render/png/tiles.ts";
import { renderViewSvg } from "../../src/render/render-view.ts";
import type { RenderInput, SvgLayout } from "../../src/render/types.ts";
import { largeView } from "./perf-view.ts";

/**
 * A large view drawn in tiles on several threads (tiles.ts) must give the picture drawn whole, and must
 * never hand resvg a document it panics on (resvg 2.6 takes the whole process down when a layer, such as a marker,
 * lies far beyond its canvas: a tile's canvas makes that possible for the arrowheads of long connections).
 */

/** The view with x and y swapped (a tall view from a wide one). */
function transposed(input: RenderInput): RenderInput {
  return {
    ...input,
    nodes: input.nodes.map((n) => ({ ...n, x: n.y, y: n.x, w: n.h, h: n.w })),
    connections: input.connections.map((c) => ({
      ...c,
      bendpoints: c.bendpoints?.map((p) => ({ x: p.y, y: p.x })) ?? null,
    })),
  };
}

function drawn(input: RenderInput) {
  let layout: SvgLayout | undefined;
  const svg = renderViewSvg(input, { layout: (l) => (layout = l) });
  if (!layout) throw new Error("renderViewSvg gave no layout");
  const [, w, h] = /width="([\d.]+)" height="([\d.]+)"/.exec(svg) ?? [];
  return { svg, layout, scale: Math.min(1, 1568 / Math.max(Number(w), Number(h))) };
}

const optionsFor = (svg: string, scale: number) => ({
  fitTo: { mode: "zoom" as const, value: scale },
  font: {
    loadSystemFonts: false,
    fontFiles: pngFontFiles(svg),
    defaultFontFamily: PNG_FONT_FAMILY,
    sansSerifFamily: PNG_FONT_FAMILY,
  },
});

/** How far two RGBA pictures of one size are apart: bytes that differ at all, and by more than 15. */
function difference(a: Uint8Array, b: Uint8Array) {
  expect(a.length).toBe(b.length);
  let any = 0;
  let visible = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] ?? 0) - (b[i] ?? 0));
    if (d > 0) any++;
    if (d > 15) visible++;
  }
  return { any: any / a.length, visible: visible / a.length };
}

describe("drawing a large view in tiles", () => {
  // A 200-node view with 300 connections running across it (the longest over 2,800 units, with arrowheads).
  const view = drawn(largeView(200, 300));

  test.each([2, 3, 4])("%i tiles: every tile draws, and together they are the picture drawn whole", async (count) => {
    const tiling = tileDocuments(view.layout, view.scale, count);
    if (!tiling) throw new Error("the view was not cut");
    // A wide view is cut into strips of columns.
    expect(tiling.axis).toBe("x");
    expect(tiling.tiles).toHaveLength(count);
    expect(tiling.tiles[0]?.from).toBe(0);
    expect(tiling.tiles.at(-1)?.to).toBe(tiling.width);
    const options = optionsFor(view.svg, view.scale);
    const whole = await renderAsync(view.svg, options);
    const own = { ...options, fitTo: { mode: "original" as const } };
    const tiles = await Promise.all(tiling.tiles.map((tile) => renderAsync(tile.svg, own)));
    for (const [i, image] of tiles.entries()) {
      const tile = tiling.tiles[i];
      expect([image.width, image.height]).toEqual([(tile?.to ?? 0) - (tile?.from ?? 0), whole.height]);
    }
    const joined = stitchTiles(
      tiling,
      tiles.map((image) => image.pixels),
    );
    const apart = difference(joined, whole.pixels);
    // Hairlines entering a tile through a cut are shaded a step differently (tiles.ts): fewer than 2 bytes in
    // 1,000 differ by more than 15 of 255, and no line is missing or added.
    expect(apart.any).toBeLessThan(0.06);
    expect(apart.visible).toBeLessThan(0.002);
    // Each tile holds only its share of the drawing.
    for (const tile of tiling.tiles) expect(tile.svg.length).toBeLessThan(view.svg.length);
  });

  test("a tile leaves out the arrowheads of far ends (and only those), keeping their lines", () => {
    const tiling = tileDocuments(view.layout, view.scale, 3);
    if (!tiling) throw new Error("the view was not cut");
    const left = tiling.tiles[0]?.svg ?? "";
    // c-299 runs level from x 1920, near the left strip's edge, to x 4800, far right of it.
    const line = (svg: string, id: string) =>
      new RegExp(`<path class="connection" data-id="${id}"[^>]*>`).exec(svg)?.[0];
    const whole = line(view.svg, "c-299");
    expect(whole).toContain("marker-start=");
    expect(whole).toContain("marker-end=");
    const inLeft = line(left, "c-299");
    expect(inLeft).toContain('d="M1920 827.5L4800 827.5"');
    expect(inLeft).toContain("marker-start=");
    expect(inLeft).not.toContain("marker-end=");
  });

  test("a drawing with a layer that a tile could not hold is drawn whole", () => {
    const { layout } = view;
    const first = layout.items[0];
    if (!first) throw new Error("no items");
    const parts = [...layout.parts];
    // A ghosted group as wide as the whole drawing (as a comparison picture's overlay could make).
    parts[first.start] = `<g opacity="0.4">${parts[first.start]}`;
    parts[first.end - 1] = `${parts[first.end - 1]}</g>`;
    const items = [{ ...first, minX: layout.vx - 9000, maxX: layout.vx + 9000 }, ...layout.items.slice(1)];
    expect(tileDocuments({ ...layout, parts, items }, view.scale, 2)).toBeUndefined();
    expect(tileDocuments({ ...layout, parts: [...layout.parts, '<g opacity="0.5"></g>'] }, view.scale, 2)).toBe(
      undefined,
    );
  });

  test("small pictures are drawn whole", () => {
    const small = drawn(largeView(12, 10));
    expect(tileDocuments(small.layout, small.scale, 2)).toBeUndefined();
  });

  // The same view turned on its side: a tall picture, cut into bands of rows, each compressed as it is drawn.
  const tall = drawn(transposed(largeView(200, 300)));

  test("a tall view is cut into bands of rows", () => {
    expect(tileDocuments(tall.layout, tall.scale, 2)?.axis).toBe("y");
  });

  test.each([
    ["wide", view],
    ["tall", tall],
  ])("rasterizeSvg with the layout of the %s view: the PNG of the picture drawn whole", async (_, picture) => {
    clearRasterCache();
    const tiled = PNG.sync.read((await rasterizeSvg(picture.svg, picture.scale, picture.layout)).png);
    clearRasterCache();
    const whole = PNG.sync.read((await rasterizeSvg(picture.svg, picture.scale)).png);
    expect([tiled.width, tiled.height]).toEqual([whole.width, whole.height]);
    const apart = difference(tiled.data, whole.data);
    expect(apart.any).toBeLessThan(0.06);
    expect(apart.visible).toBeLessThan(0.002);
  });
});

describe("PNG in bands", () => {
  test("Adler-32 of two runs combined is that of both, for any cut", () => {
    const data = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919 + (i >> 3)) % 256));
    for (const cut of [0, 1, 5551, 5552, 40_000, 69_999, 70_000]) {
      const combined = adler32Combine(adler32(data.subarray(0, cut)), adler32(data.subarray(cut)), data.length - cut);
      expect(combined).toBe(adler32(data));
    }
    // RFC 1950's example value for "Wikipedia".
    expect(adler32(Buffer.from("Wikipedia")).toString(16)).toBe("11e60398");
  });

  test("bands arriving out of order make one valid zlib stream of the rows in order", async () => {
    const width = 700;
    const rows = [300, 301, 299];
    const bands = rows.map((height, b) => ({
      pixels: Buffer.from(
        Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i * (b + 3)) % 251)),
      ),
      height,
    }));
    // The last band is ready first.
    const arriving = bands.map(
      (band, i) => new Promise<typeof band>((resolve) => setTimeout(() => resolve(band), (bands.length - i) * 20)),
    );
    const png = await encodePngBands(arriving, width);
    const decoded = PNG.sync.read(png);
    expect([decoded.width, decoded.height]).toEqual([width, 900]);
    expect(Buffer.compare(decoded.data, Buffer.concat(bands.map((b) => b.pixels)))).toBe(0);
    // The IDAT is one zlib stream whose Adler-32 checks (inflate verifies it).
    const idat = png.subarray(png.indexOf("IDAT") + 4, png.indexOf("IEND") - 8);
    expect(inflateSync(idat).length).toBe((width * 4 + 1) * 900);
  });

  test("a large picture encoded in bands decodes to the same pixels as in one", async () => {
    const width = 800;
    const height = 400;
    const pixels = Buffer.from(
      Array.from({ length: width * height * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i >> 6) % 256)),
    );
    const one = PNG.sync.read(await encodePng(pixels, width, height, 1));
    const three = PNG.sync.read(await encodePng(pixels, width, height, 3));
    expect(Buffer.compare(one.data, three.data)).toBe(0);
    expect(Buffer.compare(one.data, pixels)).toBe(0);
  });
});
