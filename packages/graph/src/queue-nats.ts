import type { GraphJob, GraphJobQueue, JobDelivery, JobOutcome } from "@ams/model";
import { AckPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";

export type NatsQueueOptions = {
  url: string;
  /** Work-queue stream (GRAPH_STREAM, default GRAPH_JOBS) and its subject (GRAPH_SUBJECT, default graph.rebuild). */
  stream?: string;
  subject?: string;
  /** Durable consumer shared by all workers (default graph-worker). */
  durable?: string;
  /** Redelivery deadline without a heartbeat (GRAPH_ACK_WAIT_MS, default 30 s). */
  ackWaitMs?: number;
  name?: string;
};

/**
 * Rebuild jobs on a NATS JetStream work-queue stream: a message is removed only when a worker acks it after the
 * job succeeded (or terminates it after a final failure); a worker that dies leaves it to be redelivered once
 * ack_wait passes without a heartbeat (msg.working()).
 */
export async function createNatsQueue(opts: NatsQueueOptions): Promise<GraphJobQueue> {
  const stream = opts.stream ?? "GRAPH_JOBS";
  const subject = opts.subject ?? "graph.rebuild";
  const durable = opts.durable ?? "graph-worker";
  const ackWaitNs = (opts.ackWaitMs ?? 30_000) * 1_000_000;
  const nc = await connect({ servers: opts.url, name: opts.name ?? "ams-graph", maxReconnectAttempts: -1 });
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(stream);
  } catch {
    await jsm.streams.add({
      name: stream,
      subjects: [subject],
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
    });
  }
  const consumerConfig = {
    ack_policy: AckPolicy.Explicit,
    ack_wait: ackWaitNs,
    max_ack_pending: 1000,
    filter_subject: subject,
  };
  try {
    await jsm.consumers.info(stream, durable);
    await jsm.consumers.update(stream, durable, { ack_wait: ackWaitNs });
  } catch {
    await jsm.consumers.add(stream, { durable_name: durable, ...consumerConfig });
  }
  const js = jetstream(nc);

  return {
    kind: "nats",
    async enqueue(job: GraphJob) {
      await js.publish(subject, JSON.stringify(job), { msgID: job.jobId });
    },
    async consume(handler: (d: JobDelivery) => Promise<JobOutcome>) {
      const consumer = await js.consumers.get(stream, durable);
      const messages = await consumer.consume({ max_messages: 1 });
      const loop = (async () => {
        for await (const m of messages) {
          let job: GraphJob;
          try {
            job = m.json<GraphJob>();
          } catch {
            m.term("not a graph job");
            continue;
          }
          let outcome: JobOutcome;
          try {
            outcome = await handler({ job, deliveryCount: m.info.deliveryCount, heartbeat: () => m.working() });
          } catch {
            outcome = { kind: "retry", delayMs: 1000 };
          }
          if (outcome.kind === "ack") await m.ackAck().catch(() => false);
          else if (outcome.kind === "term") m.term();
          else m.nak(outcome.delayMs);
        }
      })();
      return {
        async stop() {
          await messages.close();
          await loop.catch(() => {});
        },
      };
    },
    async ping() {
      if (nc.isClosed()) throw new Error("the NATS connection is closed");
      await nc.flush();
    },
    async close() {
      await nc.drain().catch(() => nc.close());
    },
  };
}
