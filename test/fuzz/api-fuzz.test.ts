import { expect, test } from "vitest";
import { runFuzz } from "./run-fuzz.ts";

/**
 * The fuzz of every published REST route (see run-fuzz.ts). Bounded: 60 cases per route and method, about 5,600
 * requests, 10-20 s on the 2-core machine; the seed is fixed so a failure replays.
 */
test("no route answers 5xx to hostile input, and another organization's data is untouched", async () => {
  const result = await runFuzz({ runsPerRoute: 60 });
  console.info(
    `fuzz: ${result.requests} requests over ${result.operations} operations, ${result.serverErrors.length} answered 5xx`,
  );
  expect(result.operations).toBeGreaterThan(60);
  expect(result.serverErrors).toEqual([]);
  expect(result.otherOrganizationUnchanged).toBe(true);
}, 600_000);
