import { openDatabase } from "@ams/db";
import neo4j from "neo4j-driver";
import { createNatsQueue } from "../../src/queue-nats.ts";
import { createGraphWorker } from "../../src/worker.ts";

/** A graph worker in a process of its own, for the crash test (killed with SIGKILL mid-job). */
const env = process.env;
const database = await openDatabase({ url: env.DATABASE_URL!, migrate: false, maxConnections: 2 });
const driver = neo4j.driver(env.NEO4J_URL!, neo4j.auth.basic(env.NEO4J_USER!, env.NEO4J_PASSWORD!));
const queue = await createNatsQueue({
  url: env.NATS_URL!,
  stream: env.GRAPH_STREAM,
  subject: env.GRAPH_SUBJECT,
  ackWaitMs: Number(env.GRAPH_ACK_WAIT_MS),
});
const worker = createGraphWorker({
  database,
  neo4j: driver,
  queue,
  staleMs: Number(env.GRAPH_ACK_WAIT_MS),
  heartbeatMs: 300,
  batchSize: 2000,
  graceMs: 100,
});
await worker.start();
console.log("worker ready");
