import { AppError } from "@ams/shared";

/**
 * PNG drawings one process runs at once, how many more may wait, and for how long. A drawing holds its whole RGBA
 * picture (4 bytes a pixel: 64 MB at the 16-megapixel cap) plus the PNG being encoded; two at once stay far below
 * the smallest memory limit of a service that draws (mcp: 1 GiB), and keep resvg's threads from taking every core.
 */
export const PNG_DRAWINGS = { concurrent: 2, queued: 4, waitMs: 5_000, retryAfterSeconds: 2 } as const;

let active = 0;
const waiting: { admit: () => void }[] = [];

const busy = () =>
  new AppError("RATE_LIMITED", "Too many PNG pictures are being drawn right now; retry in a moment (or ask for svg)", {
    headers: { "Retry-After": String(PNG_DRAWINGS.retryAfterSeconds) },
  });

/**
 * Runs one drawing in one of the process's PNG_DRAWINGS.concurrent slots. Past them, up to PNG_DRAWINGS.queued
 * callers wait (at most waitMs); any more, or one that waited too long, get 429 with Retry-After.
 */
export async function withDrawingSlot<T>(draw: () => Promise<T>): Promise<T> {
  if (active < PNG_DRAWINGS.concurrent) active++;
  else {
    if (waiting.length >= PNG_DRAWINGS.queued) throw busy();
    await new Promise<void>((resolve, reject) => {
      const entry = {
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(entry), 1);
        reject(busy());
      }, PNG_DRAWINGS.waitMs);
      waiting.push(entry);
    });
  }
  try {
    return await draw();
  } finally {
    // The slot passes straight to the next caller waiting, if any.
    const next = waiting.shift();
    if (next) next.admit();
    else active--;
  }
}
