import type { GraphJob, GraphJobQueue, JobDelivery, JobOutcome } from "@ams/model";
import { AppError, type Backoff, type Logger, retryWithBackoff, sleep } from "@ams/shared";

export type RecoveringQueue = GraphJobQueue & {
  /** Resolves once the first connection attempt has succeeded or failed. */
  firstAttempt: Promise<void>;
};

/**
 * A job queue whose connection is made in the background and retried with capped exponential backoff, so that a
 * process starts (and serves everything else) while NATS is down. Until connected, enqueue answers 503 saying so,
 * ping fails with the last error, and consume waits for the connection. Once connected, the NATS client itself
 * reconnects after an outage (without limit) and the consumer resumes.
 */
export function createRecoveringQueue(
  connect: () => Promise<GraphJobQueue>,
  opts: { backoff: Backoff; log: Logger; what?: string },
): RecoveringQueue {
  const what = opts.what ?? "the job queue (NATS)";
  const controller = new AbortController();
  let inner: GraphJobQueue | undefined;
  let lastError = "connecting";
  let firstDone: () => void = () => {};
  const firstAttempt = new Promise<void>((resolve) => {
    firstDone = resolve;
  });
  const connecting = retryWithBackoff(connect, {
    signal: controller.signal,
    backoff: opts.backoff,
    onFailure: (err, retryInMs, failures) => {
      lastError = (err as Error).message;
      if (failures === 1 || failures % 10 === 0) {
        opts.log.warn(`${what} is not reachable: ${lastError}; trying again in ${Math.round(retryInMs / 100) / 10} s`);
      }
      firstDone();
    },
  }).then((queue) => {
    if (!queue) return;
    if (controller.signal.aborted) return void queue.close();
    inner = queue;
    opts.log.info(`${what} connected`);
    firstDone();
  });
  const notConnected = () =>
    new AppError("UNAVAILABLE", `The graph job queue is not reachable (${lastError}); the service keeps retrying`);

  return {
    kind: "nats",
    firstAttempt,
    async enqueue(job: GraphJob) {
      if (!inner) throw notConnected();
      await inner.enqueue(job);
    },
    async consume(handler: (d: JobDelivery) => Promise<JobOutcome>) {
      let subscription: { stop(): Promise<void> } | undefined;
      const stopping = new AbortController();
      const signal = AbortSignal.any([stopping.signal, controller.signal]);
      const started = (async () => {
        while (!inner && !signal.aborted) await sleep(200, signal);
        // Subscribing can fail too (the stream being recreated): retried like the connection.
        subscription = await retryWithBackoff(() => (inner as GraphJobQueue).consume(handler), {
          signal,
          backoff: opts.backoff,
          onFailure: (err, retryInMs) =>
            opts.log.warn(
              `consuming from ${what} failed: ${(err as Error).message}; trying again in ${Math.round(retryInMs)} ms`,
            ),
        });
      })();
      return {
        async stop() {
          stopping.abort();
          await started.catch(() => {});
          await subscription?.stop();
        },
      };
    },
    async ping() {
      if (!inner) throw new Error(lastError);
      await inner.ping();
    },
    async close() {
      controller.abort();
      await connecting;
      await inner?.close();
    },
  };
}
