import { Resvg } from "@resvg/resvg-js";
import { PNG } from "pngjs";
import { describe, expect, test } from "vitest";
import { encodePng } from "../../src/render/png/encode-png.ts";

/** Our PNG encoder against resvg's own asPng(): the same pixels once decoded, transparency included. */
describe("encodePng", () => {
  test("decodes to exactly what resvg's own encoder gives, for opaque, transparent and anti-aliased pixels", async () => {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="70">` +
      `<rect x="5.5" y="5.3" width="60" height="40" fill="#ffffb5" stroke="#5c5c5c"/>` +
      `<circle cx="80" cy="40" r="22.7" fill="#1060c0" fill-opacity="0.45"/>` +
      `<path d="M0 69L119 2" stroke="#c00" stroke-width="0.7" stroke-opacity="0.8"/></svg>`;
    const image = new Resvg(svg, { fitTo: { mode: "zoom", value: 1.37 } }).render();
    const theirs = PNG.sync.read(image.asPng());
    const ours = PNG.sync.read(await encodePng(Buffer.from(image.pixels), image.width, image.height));
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    const alphas = new Set<number>();
    for (let i = 3; i < ours.data.length; i += 4) alphas.add(ours.data[i]!);
    // The picture has transparent, opaque and partly transparent pixels, and every one decodes alike.
    expect(alphas.has(0) && alphas.has(255) && alphas.size > 10).toBe(true);
    expect(Buffer.compare(ours.data, theirs.data)).toBe(0);
  });

  test("refuses pixels that are not width × height × 4 bytes", async () => {
    await expect(encodePng(Buffer.alloc(10), 2, 2)).rejects.toThrow(/not 2 × 2 RGBA/);
  });
});
