/** The queue-lag figures of the rebuild jobs table, for the worker's metrics. */
export { queuedJobStats } from "@ams/model";
export { default as neo4j } from "neo4j-driver";
export * from "./background.ts";
export * from "./env.ts";
export * from "./graph-rows.ts";
export { type LocalNeo4j, startLocalNeo4j } from "./local-neo4j.ts";
export { ENABLE_GRAPH_HINT, resolveNeo4j } from "./neo4j-config.ts";
export * from "./queue-memory.ts";
export * from "./queue-nats.ts";
export * from "./queue-recovering.ts";
export * from "./read-source.ts";
export { requireGraph } from "./require-graph.ts";
export * from "./schema.ts";
export * from "./sync.ts";
export * from "./worker.ts";
export * from "./write-graph.ts";
