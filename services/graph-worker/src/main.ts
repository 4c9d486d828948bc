import { openDatabase } from "@ams/db";
import { parseGraphEnv } from "./env.ts";
import { createGraphRuntime } from "./runtime.ts";

/**
 * The graph worker alone (split deployment): consumes rebuild jobs from NATS JetStream, reads models from
 * PostgreSQL (DATABASE_URL) and writes Neo4j (NEO4J_URL, NEO4J_USER, NEO4J_PASSWORD).
 */
const config = parseGraphEnv();
if (!config.NATS_URL) {
  console.error(
    "graph-worker: NATS_URL is required when the worker runs alone (the in-process queue lives in the standalone process)",
  );
  process.exit(1);
}
if (!config.DATABASE_URL) {
  console.error("graph-worker: DATABASE_URL is required (the PostgreSQL database the tenant service writes models to)");
  process.exit(1);
}
const database = await openDatabase({ url: config.DATABASE_URL, migrate: false });
const runtime = await createGraphRuntime({ database, worker: true });
if (!runtime.graph) {
  console.error(`graph-worker: ${runtime.unavailable}`);
  process.exit(1);
}
console.log("graph-worker consuming rebuild jobs");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void runtime
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}
