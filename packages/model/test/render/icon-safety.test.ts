import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import { PNG } from "pngjs";
import { beforeEach, describe, expect, test } from "vitest";
import { pluginIconMarkup } from "../../src/render/plugin-icon.ts";
import { forgetIconVerdicts, withoutUnsafeIcons } from "../../src/render/png/icon-safety.ts";
import { clearRasterCache, rasterizeSvg } from "../../src/render/png/rasterize.ts";

/**
 * resvg 2.6 aborts the process (a Rust panic) on a nested viewport whose content lies far outside its viewBox: one
 * plugin icon of that shape would take the service down on every PNG of a view showing it. Such an icon is found in
 * a child process before a PNG first shows it, and left out; the view is still drawn.
 */

// Green square filling the icon's box; the "far" one also has a ghosted shape 5,000 units out of its 24-unit viewBox
// (a group with opacity is a layer of its own in resvg).
const good = {
  open: ' viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"',
  inner: '<rect width="24" height="24" fill="#0a0"/>',
};
const far = {
  open: ' viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"',
  inner: '<g opacity="0.5"><rect x="5000" width="10" height="10"/></g><rect width="24" height="24" fill="#0a0"/>',
};
const farImage = {
  href: `data:image/svg+xml;base64,${Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><g opacity="0.5"><rect x="5000" width="9" height="9"/></g></svg>`,
  ).toString("base64")}`,
};

const view = (...icons: string[]) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">` +
  `<rect width="200" height="100" fill="#fff"/>${icons.join("")}</svg>`;

/** The colour of the PNG's pixel at (x, y). */
function pixel(png: Buffer, x: number, y: number): [number, number, number] {
  const image = PNG.sync.read(png);
  const at = (y * image.width + x) * 4;
  return [image.data[at] ?? 0, image.data[at + 1] ?? 0, image.data[at + 2] ?? 0];
}

describe("plugin icons resvg cannot draw", () => {
  beforeEach(() => {
    forgetIconVerdicts();
    clearRasterCache();
  });

  test("the far icon is what aborts resvg (checked in a child process, as the product does)", () => {
    const resvg = createRequire(import.meta.url).resolve("@resvg/resvg-js");
    const script = `const { Resvg } = require(${JSON.stringify(resvg)});
      new Resvg(process.argv[1]).render(); console.log("drawn");`;
    const drawn = (svg: string) => spawnSync(process.execPath, ["-e", script, svg], { encoding: "utf8" });
    expect(drawn(view(pluginIconMarkup(good, 10, 10, 20))).stdout).toContain("drawn");
    const aborted = drawn(view(pluginIconMarkup(far, 10, 10, 20)));
    expect(aborted.stdout).not.toContain("drawn");
    expect(aborted.status === 0 && aborted.signal === null).toBe(false);
  });

  test("a view with a far icon is drawn without it, keeping the good one; nothing else changes", async () => {
    const svg = view(
      pluginIconMarkup(good, 10, 10, 20),
      pluginIconMarkup(far, 60, 10, 20),
      pluginIconMarkup(farImage, 110, 10, 20),
    );
    const warnings: string[] = [];
    const checked = await withoutUnsafeIcons(svg, (m) => warnings.push(m));
    expect(checked.removed).toBe(2);
    expect(checked.svg).toContain(pluginIconMarkup(good, 10, 10, 20));
    expect(checked.svg).not.toContain('x="5000"');
    expect(checked.svg).not.toContain("data:image/svg+xml");
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/left out of PNG pictures/);
    // The product's rasterizer draws the view (the process is still here) with the good icon in place.
    const png = (await rasterizeSvg(svg, 1)).png;
    expect(pixel(png, 20, 20)).toEqual([0, 170, 0]);
    expect(pixel(png, 70, 20)).toEqual([255, 255, 255]);
    // The same document drawn in this process by resvg directly, without the far icons, matches.
    const direct = new Resvg(checked.svg).render().asPng();
    expect(pixel(png, 20, 20)).toEqual(pixel(direct, 20, 20));
  });

  test("a view without plugin icons is not checked at all; verdicts are kept per icon, not per placement", async () => {
    const plain = view('<rect x="10" y="10" width="20" height="20" fill="#00f"/>');
    const started = performance.now();
    expect(await withoutUnsafeIcons(plain)).toEqual({ svg: plain, removed: 0 });
    expect(performance.now() - started).toBeLessThan(5);
    const withGood = view(pluginIconMarkup(good, 10, 10, 20));
    expect((await withoutUnsafeIcons(withGood)).removed).toBe(0);
    // Known now, wherever a view places it: answered without a child process.
    const again = performance.now();
    expect((await withoutUnsafeIcons(withGood)).removed).toBe(0);
    expect((await withoutUnsafeIcons(view(pluginIconMarkup(good, 150, 60, 20)))).removed).toBe(0);
    expect(performance.now() - again).toBeLessThan(5);
  });
});
