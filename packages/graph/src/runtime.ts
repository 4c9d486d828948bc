import type { Database } from "@ams/db";
import type { GraphDeps, GraphJobQueue } from "@ams/model";
import { createLogger, type Logger } from "@ams/shared";
import neo4j, { type Driver } from "neo4j-driver";
import { type GraphConfig, parseGraphEnv } from "./env.ts";
import { type LocalNeo4j, startLocalNeo4j } from "./local-neo4j.ts";
import { type Neo4jChoice, resolveNeo4j } from "./neo4j-config.ts";
import { createMemoryQueue } from "./queue-memory.ts";
import { createNatsQueue } from "./queue-nats.ts";
import { type Supervised, superviseLocalNeo4j } from "./supervise.ts";
import { createGraphWorker, type GraphWorker } from "./worker.ts";

export type GraphRuntime = {
  /** Present when a Neo4j is configured or could be started; pass it to the tenant as deps.graph. */
  graph?: GraphDeps;
  /** Why graph features are off (when graph is absent): how to enable them. */
  unavailable?: string;
  close(): Promise<void>;
};

/**
 * Makes the (:GraphMeta) pointer unique per workspace, and indexes elements by id: explore's lookup of one element
 * (`MATCH (a:Element {id: $id})`) otherwise scans every node of the workspace label, so its cost grew with the model.
 * The index spans workspaces (ids repeat across them); the workspace label is checked on the few nodes it yields.
 * Idempotent.
 */
export async function ensureGraphSchema(driver: Driver, database?: string): Promise<void> {
  const statements = [
    "CREATE CONSTRAINT graph_meta_workspace IF NOT EXISTS FOR (m:GraphMeta) REQUIRE m.workspace_id IS UNIQUE",
    "CREATE INDEX element_id IF NOT EXISTS FOR (n:Element) ON (n.id)",
  ];
  for (const statement of statements) {
    try {
      await driver.executeQuery(statement, {}, { database });
    } catch (err) {
      // IF NOT EXISTS is checked before the schema lock is taken: when two processes (replicas starting together)
      // create the same rule at once, the slower one is told it exists already. That is the outcome it wanted.
      if (!isSchemaRuleAlreadyThere(err)) throw err;
    }
  }
}

const SCHEMA_RULE_ALREADY_THERE = new Set([
  "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
  "Neo.ClientError.Schema.IndexAlreadyExists",
  "Neo.ClientError.Schema.ConstraintAlreadyExists",
]);

function isSchemaRuleAlreadyThere(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && SCHEMA_RULE_ALREADY_THERE.has(code);
}

/**
 * The graph side of a process: connects to NEO4J_URL or starts the local Neo4j, opens the job queue (NATS
 * JetStream when NATS_URL is set, in-process otherwise) and, with the in-process queue or when asked, runs a worker
 * in this process. Without any Neo4j it returns `unavailable` and the routes answer 503 with that message.
 */
export async function createGraphRuntime(opts: {
  database: Database;
  env?: Record<string, string | undefined>;
  /** Also consume jobs here (always the case with the in-process queue). */
  worker?: boolean;
  log?: Logger;
  /** Which Neo4j, when the caller has already decided (resolveNeo4j); decided here otherwise. */
  choice?: Neo4jChoice;
  /** The parsed graph settings, when the caller has them already. */
  config?: GraphConfig;
}): Promise<GraphRuntime> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? createLogger({ service: "graph" });
  const config: GraphConfig = opts.config ?? parseGraphEnv(env);
  const choice = opts.choice ?? resolveNeo4j(env);
  if (choice.kind === "none") return { unavailable: choice.message, async close() {} };
  let local: Supervised | undefined;
  let url: string;
  let auth: { user: string; password: string };
  if (choice.kind === "local") {
    log.info(`starting a local Neo4j in ${choice.dataDir}`);
    const options = {
      dataDir: choice.dataDir,
      boltPort: choice.boltPort,
      password: choice.password,
      heap: choice.heap,
      pageCache: choice.pageCache,
    };
    const first: LocalNeo4j = await startLocalNeo4j(options);
    url = first.url;
    auth = { user: first.user, password: first.password };
    // A restart comes back on the same port with the same password, so the driver below keeps working.
    const again = { ...options, boltPort: Number(new URL(first.url).port), password: first.password };
    local = superviseLocalNeo4j(first, () => startLocalNeo4j(again), log);
  } else {
    url = choice.url;
    auth = { user: choice.user, password: choice.password };
  }
  const driver = neo4j.driver(url, neo4j.auth.basic(auth.user, auth.password), { disableLosslessIntegers: false });
  let queue: GraphJobQueue | undefined;
  let worker: GraphWorker | undefined;
  try {
    await driver.verifyConnectivity({ database: config.NEO4J_DATABASE });
    await ensureGraphSchema(driver, config.NEO4J_DATABASE);
    queue = config.NATS_URL
      ? await createNatsQueue({
          url: config.NATS_URL,
          stream: config.GRAPH_STREAM,
          subject: config.GRAPH_SUBJECT,
          ackWaitMs: config.GRAPH_ACK_WAIT_MS,
        })
      : createMemoryQueue();
    if (queue.kind === "memory" || opts.worker) {
      worker = createGraphWorker({
        database: opts.database,
        neo4j: driver,
        queue,
        neo4jUrl: url,
        neo4jDatabase: config.NEO4J_DATABASE,
        graceMs: config.GRAPH_RETIRE_GRACE_MS,
        staleMs: config.GRAPH_ACK_WAIT_MS,
        batchSize: config.GRAPH_BATCH_SIZE,
        log,
        neo4jDown: local?.down,
      });
      await worker.start();
    }
  } catch (err) {
    await queue?.close();
    await driver.close();
    await local?.stop();
    throw err;
  }
  log.info(
    `graph on ${url}, jobs on ${queue.kind === "nats" ? `NATS stream ${config.GRAPH_STREAM}` : "the in-process queue"}`,
  );
  return {
    graph: {
      driver,
      queue,
      database: config.NEO4J_DATABASE,
      rebuildWaitMs: config.GRAPH_REBUILD_WAIT_MS,
      queryTimeoutMs: config.EXPLORE_TIMEOUT_MS,
      rowCap: config.EXPLORE_ROW_CAP,
      down: local?.down,
    },
    async close() {
      await worker?.stop();
      await queue?.close();
      await driver.close();
      await local?.stop();
    },
  };
}
