import type { Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Writes the page has sent and not yet seen answered, and when the last one was sent or answered. Playwright's
 * "networkidle" load state resolves at once once the page has loaded, so it cannot tell that a drag was saved.
 */
const writes = new WeakMap<Page, { open: number; last: number }>();
export function trackWrites(page: Page): void {
  const state = { open: 0, last: Date.now() };
  writes.set(page, state);
  const isWrite = (method: string, url: string) => method !== "GET" && new URL(url).pathname.startsWith("/api/");
  page.on("request", (r) => {
    if (!isWrite(r.method(), r.url())) return;
    state.open++;
    state.last = Date.now();
  });
  const done = (r: { method(): string; url(): string }) => {
    if (!isWrite(r.method(), r.url())) return;
    state.open--;
    state.last = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
}

/** Resolves once no write is in flight and none was sent or answered in the last 300 ms. */
export async function writesSettled(page: Page): Promise<void> {
  const state = writes.get(page)!;
  await expect
    .poll(() => state.open === 0 && Date.now() - state.last >= 300, { interval: 50, timeout: 15_000 })
    .toBe(true);
}
