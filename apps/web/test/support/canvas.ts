import { must } from "@ams/shared/testing";
import type { Page } from "playwright-core";

export type Point = { x: number; y: number };

/** The page position of a point of the model's drawing, from the editor's current pan and zoom (read from the SVG). */
export async function canvasPoint(page: Page, x: number, y: number): Promise<Point> {
  const box = must((await page.locator("svg.canvas").boundingBox()) ?? undefined, "the canvas on screen");
  const transform = must(
    (await page.locator("svg.canvas > g").first().getAttribute("transform")) ?? undefined,
    "the pan and zoom",
  );
  const parts = /translate\(([-\d.]+) ([-\d.]+)\) scale\(([-\d.]+)\)/.exec(transform);
  const [px, py, zoom] = [1, 2, 3].map((i) => Number(must(parts?.[i], `part ${i} of "${transform}"`)));
  return {
    x: box.x + must(px, "the pan x") + x * must(zoom, "the zoom"),
    y: box.y + must(py, "the pan y") + y * must(zoom, "the zoom"),
  };
}

/** A mouse drag in eight steps, as a hand moves: the editor sees every intermediate position. */
export async function dragMouse(page: Page, from: Point, to: Point): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++)
    await page.mouse.move(from.x + ((to.x - from.x) * i) / 8, from.y + ((to.y - from.y) * i) / 8);
  await page.mouse.up();
}
