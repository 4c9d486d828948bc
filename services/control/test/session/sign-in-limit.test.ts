import { testLogger } from "@ams/shared";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createControlApp } from "../../src/app.ts";
import { createHarness, type Harness, type TestUser } from "../support/harness.ts";

/**
 * The session profile's sign-in limit across replicas: two control apps (two "replicas") on ONE real PostgreSQL
 * database count the same failures, with the local profile's policy (exponential backoff after 5 failures per
 * address and per username from one address, a short one per username from anywhere), answering 429 with
 * Retry-After while a delay is in force.
 */
const ORIGIN = "http://control.test";
let h: Harness;
let replicaB: ReturnType<typeof createControlApp>;
let sam: TestUser;
let tess: TestUser;

beforeAll(async () => {
  h = await createHarness({ env: { AUTH_MODE: "session" } });
  replicaB = createControlApp({
    database: h.database,
    tokens: h.tokens,
    env: h.env,
    clock: h.clock.now,
    upstreams: { tenant: h.recorder, mcp: h.mcp },
    log: testLogger("control-b"),
  });
  sam = await h.user("sam");
  tess = await h.user("tess");
}, 60_000);
afterAll(() => h.close());

type Replica = { request(url: string, init: RequestInit): Response | Promise<Response> };

function signIn(replica: Replica, username: string, password: string, ip: string) {
  return replica.request(`${ORIGIN}/auth/sign-in/username`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN, "x-forwarded-for": ip },
    body: JSON.stringify({ username, password }),
  });
}

describe("sign-in limit of the session profile, shared by the replicas through the database", () => {
  test("five failures of one username from one address, spread over two replicas, delay that pair by 60 s", async () => {
    const ip = "203.0.113.7";
    for (const replica of [h.app, replicaB, h.app, replicaB, h.app]) {
      expect((await signIn(replica, "sam", "wrong-password-000", ip)).status).toBe(401);
    }
    // The sixth try is refused before the password is looked at, on either replica, even with the right password.
    for (const replica of [replicaB, h.app]) {
      const res = await signIn(replica, "SAM", sam.password, ip);
      expect(res.status).toBe(429);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(retryAfter).toBe(60);
      expect(await res.json()).toMatchObject({
        status: 429,
        detail: "Too many failed sign-in attempts; try again later",
      });
    }
    // A stranger's guesses do not lock the real user out elsewhere.
    expect((await signIn(replicaB, "sam", sam.password, "198.51.100.20")).status).toBe(200);
    // When the delay has passed, the address may try again.
    h.clock.advance(60_000);
    expect((await signIn(h.app, "sam", sam.password, ip)).status).toBe(200);
  });

  test("failures of one username from many addresses delay it by at most 30 s, on both replicas", async () => {
    for (let i = 0; i < 10; i++) {
      const replica = i % 2 === 0 ? h.app : replicaB;
      expect((await signIn(replica, "tess", "wrong-password-000", `192.0.2.${i + 1}`)).status).toBe(401);
    }
    const res = await signIn(replicaB, "tess", tess.password, "192.0.2.250");
    expect(res.status).toBe(429);
    const wait = Number(res.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    // Another username from the same addresses is not affected; the real user gets in once the short wait is over.
    expect((await signIn(h.app, "sam", sam.password, "192.0.2.1")).status).toBe(200);
    h.clock.advance(wait * 1000);
    expect((await signIn(h.app, "tess", tess.password, "192.0.2.250")).status).toBe(200);
  }, 60_000);
});
