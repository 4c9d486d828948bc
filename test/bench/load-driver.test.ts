import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Operation, runLoad } from "../../bench/load-driver.ts";

/**
 * The load driver books each answer under the operation that sent it: autocannon's own histogram mixes them all,
 * so a mistake here would print a slow operation's tail under a fast one's name.
 */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/slow") {
      setTimeout(() => res.end("{}"), 25);
    } else if (req.url === "/refused") {
      res.writeHead(422, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ title: "Validation failed", detail: "name: too long" }));
    } else {
      res.end("{}");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

test("each operation gets its own latencies, failures explained by status and detail, settle called per answer", async () => {
  const settled = { fast: 0, slow: 0 };
  const operations: Operation[] = [
    {
      name: "fast",
      weight: 1,
      plan: () => ({ request: { method: "GET", path: "/fast" }, settle: () => void settled.fast++ }),
    },
    {
      name: "slow",
      weight: 1,
      plan: () => ({ request: { method: "GET", path: "/slow" }, settle: () => void settled.slow++ }),
    },
    { name: "refused", weight: 1, plan: () => ({ request: { method: "POST", path: "/refused", body: "{}" } }) },
    // Never has anything to do: its turns go to the others, and it books nothing.
    { name: "idle", weight: 1, plan: () => undefined },
  ];
  const run = await runLoad({ base, operations, connections: 4, seconds: 1 });
  const [fast, slow, refused, idle] = run.operations;

  expect(fast!.count).toBeGreaterThan(10);
  expect(slow!.count).toBeGreaterThan(10);
  expect(slow!.p50).toBeGreaterThanOrEqual(25);
  expect(fast!.p50).toBeLessThan(25);
  expect(settled.fast).toBe(fast!.count);
  expect(settled.slow).toBe(slow!.count);
  expect(fast!.errors + slow!.errors).toBe(0);
  expect(refused!.errors).toBe(refused!.count);
  expect(refused!.failures).toEqual({ "422 Validation failed: name: too long": refused!.count });
  expect(idle!.count).toBe(0);
  expect(run.all.count).toBe(fast!.count + slow!.count + refused!.count);
  expect(run.all.errors).toBe(refused!.count);
});
