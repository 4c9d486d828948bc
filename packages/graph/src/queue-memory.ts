import type { GraphJob, GraphJobQueue, JobDelivery, JobOutcome } from "@ams/model";

/**
 * The in-process rebuild queue of the standalone shape (no NATS_URL): same interface and the same retry semantics
 * as JetStream, without durability (the process that holds it is the one that runs the jobs). Sync jobs of one
 * workspace coalesce while waiting.
 */
export function createMemoryQueue(): GraphJobQueue {
  const pending: { job: GraphJob; deliveries: number }[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();

  const push = (item: { job: GraphJob; deliveries: number }) => {
    // A sync already waiting for the same workspace will read the whole log: a second one adds nothing.
    const { kind, workspaceId } = item.job;
    if (kind === "sync" && pending.some((p) => p.job.kind === "sync" && p.job.workspaceId === workspaceId)) return;
    pending.push(item);
    wake?.();
  };

  return {
    kind: "memory",
    async ping() {
      if (closed) throw new Error("the job queue is closed");
    },
    async enqueue(job) {
      if (closed) throw new Error("the job queue is closed");
      push({ job, deliveries: 0 });
    },
    async consume(handler: (d: JobDelivery) => Promise<JobOutcome>) {
      let stopped = false;
      const loop = (async () => {
        while (!stopped && !closed) {
          const item = pending.shift();
          if (!item) {
            await new Promise<void>((r) => {
              wake = r;
            });
            wake = undefined;
            continue;
          }
          item.deliveries++;
          let outcome: JobOutcome;
          try {
            outcome = await handler({ job: item.job, deliveryCount: item.deliveries, heartbeat() {} });
          } catch {
            outcome = { kind: "retry", delayMs: 1000 };
          }
          if (outcome.kind === "retry") {
            const timer = setTimeout(() => {
              timers.delete(timer);
              if (!closed) push(item);
            }, outcome.delayMs);
            timers.add(timer);
          }
        }
      })();
      return {
        async stop() {
          stopped = true;
          wake?.();
          await loop;
        },
      };
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      wake?.();
    },
  };
}
