import { createServer } from "node:net";

/**
 * Waiting on processes and ports, for the benches that start services and for the tests that do (which import them
 * from test/deploy/support/processes.ts). Kept under bench/ so the bench files `pnpm bench:compare` copies into an
 * older tree find them there: that tree may not have the test support yet.
 */

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Polls until check() is truthy; throws with the last state after timeoutMs. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
      last = value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${String((last as Error)?.message ?? JSON.stringify(last))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
