import type { Driver } from "neo4j-driver";
import type { GraphAnswerCache } from "./answer-cache.ts";

/**
 * A job of the graph worker. A rebuild (kind absent or "rebuild") has its row in graph_jobs, which carries its state;
 * requestId is the id of the request that asked for it, carried into the worker's log lines. A sync ("sync") has no
 * row and carries nothing but the workspace: it says "look at the change log", whose groups after the graph's
 * revision the worker then applies (or builds the graph when it was never built).
 */
export type GraphJob = { jobId: string; workspaceId: string; requestId?: string; kind?: "rebuild" | "sync" };

/**
 * The sync job of a workspace. Its id (the queue's de-duplication key) names the model revision that asked for it,
 * so every wake-up for the same revision is one message; `build` asks for a first build (one per 10 s window).
 */
export function syncJob(workspaceId: string, reason: { revision: number } | "build"): GraphJob {
  const key = reason === "build" ? `build-${Math.floor(Date.now() / 10_000)}` : `r${reason.revision}`;
  return { kind: "sync", jobId: `sync-${workspaceId}-${key}`, workspaceId };
}

/** What a job handler tells the queue: done (ack), never again (term), or try later (redeliver). */
export type JobOutcome = { kind: "ack" } | { kind: "term" } | { kind: "retry"; delayMs: number };

export type JobDelivery = {
  job: GraphJob;
  /** 1 for the first delivery; more after a worker died or asked for a retry. */
  deliveryCount: number;
  /** Tells the queue the job is still being worked on (extends the acknowledgement deadline). */
  heartbeat(): void;
};

/** The rebuild queue: NATS JetStream when NATS_URL is set, an in-process queue otherwise. */
export interface GraphJobQueue {
  readonly kind: "nats" | "memory";
  enqueue(job: GraphJob): Promise<void>;
  /** Runs handler for each delivered job, one at a time, until stop(). */
  consume(handler: (delivery: JobDelivery) => Promise<JobOutcome>): Promise<{ stop(): Promise<void> }>;
  /** Resolves when the queue can take jobs (a NATS round trip; always for the in-process queue). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What the graph routes need; absent when no Neo4j is configured (they answer 503 with how to enable it). */
export type GraphDeps = {
  driver: Driver;
  queue: GraphJobQueue;
  /** How long POST /api/export/neo4j waits for the job before answering 202 (GRAPH_REBUILD_WAIT_MS, default 10 s). */
  rebuildWaitMs?: number;
  /** Transaction timeout of explore and panel queries (EXPLORE_TIMEOUT_MS, default 10 s). */
  queryTimeoutMs?: number;
  /** Most rows returned by explore and panel queries (EXPLORE_ROW_CAP, default 1000). */
  rowCap?: number;
  /** Neo4j database name (NEO4J_DATABASE), default the server's default. */
  database?: string;
  /** Why the graph database is known to be down right now (a supervised local Neo4j restarting); undefined when up. */
  down?: () => string | undefined;
  /** Explore and panel answers kept per graph revision on this replica (EXPLORE_CACHE_MB); none caches nothing. */
  answers?: GraphAnswerCache;
};

/**
 * Graph deps that may arrive after start-up: a local Neo4j takes seconds to start, and the HTTP server does not wait
 * for it. `get()` is undefined until the graph is ready (or when it never will be); `unavailable()` says why.
 */
export type GraphHandle = { get(): GraphDeps | undefined; unavailable(): string };

/** What a service hands its graph routes: ready deps, a handle to deps still starting, or nothing. */
export type GraphProvider = GraphDeps | GraphHandle | undefined;
