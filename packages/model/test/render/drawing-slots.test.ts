import { AppError } from "@ams/shared";
import { beforeEach, expect, test } from "vitest";
import { PNG_DRAWINGS } from "../../src/render/png/drawing-slots.ts";
import { clearRasterCache, rasterizeSvg } from "../../src/render/png/rasterize.ts";

// Security finding 14: one process draws at most PNG_DRAWINGS.concurrent PNG pictures at once, PNG_DRAWINGS.queued
// more wait, and any more get 429 with Retry-After instead of each holding a whole picture in memory.

/** A picture of 1 megapixel (1,000 x 1,000 at scale 1) with labels to shape. */
const svg = (n: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">` +
  `<rect width="1000" height="1000" fill="#fff"/>` +
  Array.from(
    { length: 49 },
    (_, i) =>
      `<rect x="${(i % 7) * 140}" y="${Math.floor(i / 7) * 130}" width="130" height="60" fill="#b5ffff" stroke="#000"/>` +
      `<text x="${(i % 7) * 140 + 5}" y="${Math.floor(i / 7) * 130 + 30}" font-family="Arial" font-size="12">Picture ${n} element ${i}</text>`,
  ).join("") +
  "</svg>";

beforeEach(() => clearRasterCache());

test("drawings past the slots and the queue are refused at once with 429 and Retry-After; the others are drawn", async () => {
  const extra = 3;
  const n = PNG_DRAWINGS.concurrent + PNG_DRAWINGS.queued + extra;
  const answers = await Promise.allSettled(Array.from({ length: n }, (_, i) => rasterizeSvg(svg(i), 1)));
  const drawn = answers.filter((a) => a.status === "fulfilled");
  const refused = answers.flatMap((a) => (a.status === "rejected" ? [a.reason as AppError] : []));
  expect(drawn).toHaveLength(PNG_DRAWINGS.concurrent + PNG_DRAWINGS.queued);
  expect(refused).toHaveLength(extra);
  for (const err of refused) {
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("RATE_LIMITED");
    expect(err.headers).toEqual({ "Retry-After": String(PNG_DRAWINGS.retryAfterSeconds) });
    expect(err.message).toMatch(/Too many PNG pictures are being drawn/);
  }
  // The slots come back once the drawings are done.
  expect((await rasterizeSvg(svg(99), 1)).width).toBe(1000);
}, 60_000);

test("a picture already drawn comes from the cache without taking a slot", async () => {
  await rasterizeSvg(svg(1), 1);
  const busy = Array.from({ length: PNG_DRAWINGS.concurrent + PNG_DRAWINGS.queued }, (_, i) =>
    rasterizeSvg(svg(i + 10), 1),
  );
  const cached = await rasterizeSvg(svg(1), 1);
  expect(cached.width).toBe(1000);
  await Promise.all(busy);
}, 60_000);
