import { PNG } from "pngjs";
import { beforeEach, describe, expect, test } from "vitest";
import { pngFontFiles } from "../../src/render/png/fonts.ts";
import { clearRasterCache, rasterCacheSize, rasterizeSvg } from "../../src/render/png/rasterize.ts";

const svg = (label: string, x = 10) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80">` +
  `<rect x="${x}" y="10" width="150" height="50" fill="#ffffb5" stroke="#000"/>` +
  `<text x="${x + 10}" y="40" font-family="Arial" font-size="12">${label}</text></svg>`;

describe("PNG pictures of our SVG", () => {
  beforeEach(() => clearRasterCache());

  test("draws the document at the asked scale, as a PNG that decodes", async () => {
    const picture = await rasterizeSvg(svg("Customer"), 2);
    expect([picture.width, picture.height]).toEqual([400, 160]);
    const decoded = PNG.sync.read(picture.png);
    expect([decoded.width, decoded.height]).toEqual([400, 160]);
    // The yellow of the business layer is in the picture (the rectangle was drawn, not only the canvas).
    const at = 4 * (decoded.width * 60 + 100);
    expect([decoded.data[at], decoded.data[at + 1], decoded.data[at + 2]]).toEqual([255, 255, 181]);
  });

  test("the same document is drawn once; any change to it is drawn anew", async () => {
    const first = await rasterizeSvg(svg("Customer"), 1);
    const again = await rasterizeSvg(svg("Customer"), 1);
    expect(again).toBe(first);
    expect(rasterCacheSize()).toBe(1);
    const moved = await rasterizeSvg(svg("Customer", 30), 1);
    expect(moved.png.equals(first.png)).toBe(false);
    const renamed = await rasterizeSvg(svg("Client"), 1);
    expect(renamed.png.equals(first.png)).toBe(false);
    const larger = await rasterizeSvg(svg("Customer"), 2);
    expect(larger.width).toBe(400);
    expect(rasterCacheSize()).toBe(4);
  });

  test("the cache stays bounded however many documents are drawn", async () => {
    for (let i = 0; i < 80; i++) await rasterizeSvg(svg(`Element ${i}`), 0.5);
    expect(rasterCacheSize()).toBeLessThanOrEqual(64);
    expect(rasterCacheSize()).toBeGreaterThan(0);
  });

  test("Greek, Cyrillic or Hebrew labels load their faces; Latin punctuation such as an ellipsis does not", () => {
    const latinOnly = pngFontFiles(svg("A long name…"));
    expect(latinOnly.every((f) => /arimo-latin(-ext)?-/.test(f))).toBe(true);
    for (const label of ["Κύκλος", "Заказ", "לקוח"]) {
      const files = pngFontFiles(svg(label));
      expect(files.length).toBeGreaterThan(latinOnly.length);
    }
  });
});
