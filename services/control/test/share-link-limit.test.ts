import { loginAttempts } from "@ams/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SHARED_PAGES_PER_ADDRESS } from "../src/gateway/middleware.ts";
import { createHarness, type Harness } from "./support/harness.ts";

/** Share links answer anyone: the gateway bounds the requests of one client address before forwarding them. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

const TOKEN = "A".repeat(43);
const open = (path: string, ip: string) => h.call("GET", path, { headers: { "x-forwarded-for": ip } });

describe("share links from one client address", () => {
  test("600 requests per 5 minutes, then 429 with Retry-After and nothing forwarded; other addresses go on", async () => {
    const ip = "10.88.0.1";
    const { max, windowMs } = SHARED_PAGES_PER_ADDRESS;
    expect({ max, windowMs }).toEqual({ max: 600, windowMs: 300_000 });
    // The address already made all but one of its requests in this window (stored as the gateway counts them).
    const earlier = h.clock.now();
    await h.db
      .insert(loginAttempts)
      .values(Array.from({ length: max - 1 }, () => ({ key: `share:${ip}`, attemptedAt: earlier })));
    const last = await open(`/s/${TOKEN}/index.html`, ip);
    expect(last.status).toBe(200);
    expect(h.recorder.last().url.pathname).toBe(`/s/${TOKEN}/index.html`);

    const forwarded = h.recorder.calls.length;
    for (const path of [`/s/${TOKEN}`, `/s/${TOKEN}/report.css`, `/s/${TOKEN}/views/v.html`]) {
      const refused = await open(path, ip);
      expect(refused.status, path).toBe(429);
      expect(refused.headers.get("content-type")).toMatch(/problem\+json/);
      expect((await refused.json()).detail).toMatch(/Too many requests for shared pages/);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(300);
    }
    expect(h.recorder.calls.length).toBe(forwarded);
    // A refused request is not counted: the window holds the address's 600.
    const counted = await h.db
      .select()
      .from(loginAttempts)
      .where(eq(loginAttempts.key, `share:${ip}`));
    expect(counted).toHaveLength(max);

    expect((await open(`/s/${TOKEN}`, "10.88.0.2")).status).toBe(200);
    // Once the window has passed, the address is served again.
    h.clock.advance(windowMs + 1000);
    expect((await open(`/s/${TOKEN}`, ip)).status).toBe(200);
  });

  test("the rest of the API is not counted under the share-link limit", async () => {
    const ip = "10.88.0.3";
    await h.call("GET", "/api/health", { headers: { "x-forwarded-for": ip } });
    await h.call("GET", "/api/me", { headers: { "x-forwarded-for": ip } });
    expect(
      await h.db
        .select()
        .from(loginAttempts)
        .where(eq(loginAttempts.key, `share:${ip}`)),
    ).toHaveLength(0);
  });
});
