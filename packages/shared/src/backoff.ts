/** Capped exponential backoff: initialMs, doubled per failure, never above maxMs, with ±20 % jitter. */
export type Backoff = { initialMs: number; maxMs: number };

export const defaultBackoff: Backoff = { initialMs: 500, maxMs: 30_000 };

export function backoffDelay(failures: number, backoff: Backoff = defaultBackoff): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures, 30));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** Resolves after ms, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Calls attempt until it succeeds or the signal aborts, waiting a capped exponential backoff between failures;
 * onFailure hears each failure with the delay before the next try. Resolves to the result, or undefined when aborted.
 */
export async function retryWithBackoff<T>(
  attempt: () => Promise<T>,
  opts: {
    signal: AbortSignal;
    backoff?: Backoff;
    onFailure?: (err: unknown, retryInMs: number, failures: number) => void;
  },
): Promise<T | undefined> {
  let failures = 0;
  while (!opts.signal.aborted) {
    try {
      return await attempt();
    } catch (err) {
      const delay = backoffDelay(failures, opts.backoff);
      failures++;
      opts.onFailure?.(err, delay, failures);
      await sleep(delay, opts.signal);
    }
  }
  return undefined;
}
