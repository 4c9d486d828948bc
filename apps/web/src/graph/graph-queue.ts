import { ApiError } from "../api/client.ts";

/**
 * The browser's side of the per-user graph query limit (four running at once per user on a replica): a dashboard's
 * panels run through this queue, at most three at a time, leaving a slot for explore or another tab. Chosen over a
 * server that waits for a free slot because the page knows what it is about to send and can pace itself, while a
 * waiting server would hold connections and requests for every caller, scripts included, and hide the limit.
 * A 429 that still happens (another tab, another page) is waited out as the server's Retry-After says and run
 * again, and so is a graph being built (503 with Retry-After): neither is shown as a refusal.
 */
export const GRAPH_QUERY_WIDTH = 3;

let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= GRAPH_QUERY_WIDTH) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await run();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** A graph not built yet answers 503 "Building the graph of this workspace (42%)" with Retry-After. */
export const isBuilding = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.status === 503 && /^Building the graph/.test(err.message);

const isBusy = (err: unknown) => err instanceof ApiError && err.status === 429;

/**
 * Runs one graph query in the queue; waits and runs it again while the server says "too many running" or "being
 * built" (`onWait` hears each of those, to show it), for at most `giveUpMs`. `alive` false stops the retries.
 */
export async function queuedGraphQuery<T>(
  run: () => Promise<T>,
  opts: { onWait?: (err: ApiError) => void; alive?: () => boolean; giveUpMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.giveUpMs ?? 120_000);
  for (;;) {
    try {
      return await slot(run);
    } catch (err) {
      const again = (isBusy(err) || isBuilding(err)) && Date.now() < deadline && (opts.alive?.() ?? true);
      if (!again) throw err;
      opts.onWait?.(err as ApiError);
      await new Promise((r) => setTimeout(r, isBusy(err) ? 400 + Math.random() * 600 : 1000));
    }
  }
}

/** "the graph is 3 changes behind" (and catching up), or nothing when it is current. */
export function behindText(graph: { behind: number } | undefined): string | null {
  if (!graph || graph.behind <= 0) return null;
  return `The graph is ${graph.behind} ${graph.behind === 1 ? "change" : "changes"} behind the model; it is catching up.`;
}
