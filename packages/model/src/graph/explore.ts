import { type Database, sql } from "@ams/db";
import { AppError, invalid } from "@ams/shared";
import neo4j, { type ManagedTransaction, type Record as Neo4jRecord, type Transaction } from "neo4j-driver";
import type { z } from "zod";
import { type RequestContext, requireCapability, requireWorkspace, type Verb } from "../context.ts";
import type { Query } from "./cypher/ast.ts";
import { parseReadQuery } from "./cypher/parse.ts";
import { printScoped } from "./cypher/print.ts";
import { REGEX_SUBJECT_LIMIT, SUBJECT_TOO_LONG, unsafeRegexReason } from "./cypher/safe-regex.ts";
import { type GraphDeps, syncJob } from "./deps.ts";
import { readBuildProgress, readGraphMeta, type Slot, scopeLabel } from "./labels.ts";
import { checkPlan, type PlanNode } from "./plan-check.ts";
import { withQuerySlot } from "./query-slots.ts";
import { toResult } from "./results.ts";
import type { ExploreInput, QueryResultSchema } from "./schemas.ts";

/** POST /api/explore: a read-only Cypher query over the active workspace's graph. */
export async function explore({
  ctx,
  input,
  graph,
}: Verb<ExploreInput> & { graph: GraphDeps }): Promise<z.infer<typeof QueryResultSchema>> {
  requireCapability(ctx, "model:read");
  const ws = requireWorkspace(ctx);
  const query = parseReadQuery(input.query);
  return answerScoped(ctx, graph, ws, input.query, query, input.parameters ?? {});
}

/**
 * An explore or panel query as a caller asks it: from the replica's answer cache when the graph is unchanged since
 * the same caller visibility asked the same query with the same parameters (graph.answers; see answer-cache.ts),
 * otherwise run in one of the caller's query slots.
 */
export function answerScoped(
  ctx: RequestContext,
  graph: GraphDeps,
  workspaceId: string,
  text: string,
  query: Query,
  parameters: Record<string, unknown>,
): Promise<z.infer<typeof QueryResultSchema>> {
  checkParameters(parameters);
  const run = () =>
    withQuerySlot(ctx, (hold) => runScopedQuery(graph, workspaceId, query, parameters, hold, ctx.database));
  const down = graph.down?.();
  if (!graph.answers || down) return run();
  return graph.answers.answer(ctx, workspaceId, text, parameters, run);
}

/**
 * The one path every explore and panel query takes: the parsed query is printed with the workspace's current slot
 * label on every node pattern, its EXPLAIN plan is checked, and it runs in a READ transaction with a timeout,
 * streaming at most rowCap + 1 records. `hold` receives a promise that settles once Neo4j has let go of the
 * transaction (rolled back, or the connection closed): the caller's query slot stays taken until then, even when the
 * answer (a timeout) went out earlier. With `database`, the answer says how current the graph is (`graph`: its
 * revision, the model's, and how many change groups it is behind), and a graph that is behind or was never built
 * wakes the sync (a coalesced job; the change log says what to apply).
 */
export async function runScopedQuery(
  graph: GraphDeps,
  workspaceId: string,
  query: Query,
  parameters: Record<string, unknown>,
  hold: (ended: Promise<unknown>) => void = () => {},
  database?: Database,
): Promise<z.infer<typeof QueryResultSchema>> {
  checkParameters(parameters);
  checkRegexParameters(query, parameters);
  const down = graph.down?.();
  if (down) throw new AppError("UNAVAILABLE", down);
  const rowCap = graph.rowCap ?? 1000;
  const timeout = graph.queryTimeoutMs ?? 10_000;
  const session = graph.driver.session({
    database: graph.database,
    defaultAccessMode: neo4j.session.READ,
    fetchSize: rowCap + 1,
  });
  let scope = "";
  let revision: number | null = null;
  // One explicit transaction, never retried: executeRead would re-run a query that ran out of memory or time for
  // half a minute. Neo4j enforces the timeout between rows; the deadline below answers the caller even when the
  // server is stuck inside one expression.
  const tx = session.beginTransaction({ timeout });
  let deadline: NodeJS.Timeout | undefined;
  let pastDeadline = false;
  const stopped = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => {
      pastDeadline = true;
      reject(timedOut(timeout));
    }, timeout + 1_000);
  });
  try {
    const work = (async () => {
      const prepared = await prepareScoped(tx, workspaceId, query, parameters);
      scope = prepared.scope;
      revision = prepared.revision;
      const result = tx.run(prepared.text, parameters);
      const keys = (await result.keys()) as string[];
      const records: Neo4jRecord[] = [];
      let truncated = false;
      for await (const record of result) {
        if (records.length === rowCap) {
          truncated = true;
          break;
        }
        records.push(record);
      }
      return toResult(keys, records, truncated, rowCap);
    })();
    work.catch(() => {});
    const result = await Promise.race([work, stopped]);
    return database ? { ...result, graph: await freshness(graph, database, workspaceId, revision) } : result;
  } catch (err) {
    if (err instanceof GraphBuilding) wake(graph, syncJob(workspaceId, "build"));
    throw mapNeo4jError(err, scope, timeout);
  } finally {
    clearTimeout(deadline);
    // Not awaited: a transaction stuck on the server must not hold the answer. Past the deadline the server is
    // still inside the statement, and answers the rollback only once it has finished it: the caller's slot is held
    // until then (otherwise a caller could keep starting runaway statements, one per timeout).
    const ended = tx
      .rollback()
      .catch(() => {})
      .finally(() => session.close().catch(() => {}));
    if (pastDeadline) hold(ended);
  }
}

/**
 * Resolves the workspace's current slot, prints the query scoped to it and checks its EXPLAIN plan: everything
 * explore does before running a query (the bench measures this as the explore overhead).
 */
export async function prepareScoped(
  tx: ManagedTransaction | Transaction,
  workspaceId: string,
  query: Query,
  parameters: Record<string, unknown>,
) {
  const current = await currentGraph(tx, workspaceId);
  const scope = scopeLabel(workspaceId, current.slot);
  const text = printScoped(query, scope);
  const explained = await tx.run(`EXPLAIN ${text}`, parameters);
  checkPlan(explained.summary.plan as unknown as PlanNode, scope);
  return { scope, text, revision: current.revision };
}

/** A graph that was never built: 503 with Retry-After, saying how far its first build has come. */
class GraphBuilding extends AppError {
  constructor(percent: number) {
    super("UNAVAILABLE", `Building the graph of this workspace (${percent}%)`, { headers: { "Retry-After": "1" } });
  }
}

/**
 * The workspace's current slot and revision, remembered for SLOT_TTL_MS. Safe because a switched-away slot stays
 * readable for the retire grace (default 11 s), longer than this TTL plus the query timeout; a rebuild answered by
 * this process forgets the entry at once (forgetSlot). The revision shown may be that much older than the graph's.
 */
const SLOT_TTL_MS = 500;
const slots = new Map<string, { slot: Slot; revision: number | null; at: number }>();

async function currentGraph(tx: ManagedTransaction | Transaction, workspaceId: string) {
  const cached = slots.get(workspaceId);
  if (cached && Date.now() - cached.at < SLOT_TTL_MS) return cached;
  const meta = await readGraphMeta(tx, workspaceId);
  if (!meta) throw new GraphBuilding((await readBuildProgress(tx, workspaceId)) ?? 0);
  if (slots.size > 10_000) slots.clear();
  const current = { slot: meta.slot, revision: meta.revision, at: Date.now() };
  slots.set(workspaceId, current);
  return current;
}

/** How current the graph is; one behind the model (or more) wakes the sync, in case its wake-up was lost. */
async function freshness(graph: GraphDeps, database: Database, workspaceId: string, revision: number | null) {
  const [row] = await database.rows<{ revision: string | number }>(
    sql`select revision from workspaces where id = ${workspaceId}`,
  );
  const model = Number(row?.revision ?? 0);
  const behind = Math.max(0, model - (revision ?? 0));
  if (behind > 0 || revision === null) wake(graph, syncJob(workspaceId, { revision: model }));
  return { revision, model_revision: model, behind };
}

/** Asks the worker to look at the log; a queue that is down is no error here (the worker's sweep catches up). */
function wake(graph: GraphDeps, job: ReturnType<typeof syncJob>): void {
  graph.queue.enqueue(job).catch(() => {});
}

export function forgetSlot(workspaceId: string): void {
  slots.delete(workspaceId);
}

/** Deeper values are refused before they reach JSON.stringify or the driver, both of which recurse. */
const MAX_PARAMETER_DEPTH = 32;

function parameterDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (depth > deepest) deepest = depth;
    if (depth > MAX_PARAMETER_DEPTH) return depth;
    if (v !== null && typeof v === "object") for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function checkParameters(parameters: Record<string, unknown>): void {
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters))
    throw invalid("parameters", "must be an object");
  if (parameterDepth(parameters) > MAX_PARAMETER_DEPTH)
    throw invalid("parameters", `must not be nested deeper than ${MAX_PARAMETER_DEPTH} levels`);
  const size = JSON.stringify(parameters).length;
  if (size > 256 * 1024) throw invalid("parameters", "must be at most 256 KiB of JSON");
}

/** A parameter used as the pattern of =~ must hold a string explore would accept as a literal pattern. */
function checkRegexParameters(query: Query, parameters: Record<string, unknown>): void {
  for (const name of query.regexParameters ?? []) {
    const value = parameters[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") throw invalid(`parameters.${name}`, "is the pattern of =~ and must be a string");
    const reason = unsafeRegexReason(value);
    if (reason) throw invalid(`parameters.${name}`, `is the pattern of =~ and ${reason}`);
  }
}

function timedOut(timeout: number): AppError {
  return new AppError("VALIDATION", `query: stopped after the time limit of ${timeout} ms`, {
    errors: [{ path: "query", message: `ran longer than ${timeout} ms` }],
  });
}

function mapNeo4jError(err: unknown, scope: string, timeout: number): unknown {
  if (err instanceof AppError) return err;
  const e = err as { code?: string; message?: string };
  const code = e.code ?? "";
  const message = scope ? String(e.message ?? "").replaceAll(scope, "<workspace>") : String(e.message ?? "");
  if (
    /TransactionTimedOut|Transaction\.TransactionTimedOutClientConfiguration|TransactionTimedOut/i.test(code) ||
    /timed out|terminated/i.test(message)
  ) {
    return timedOut(timeout);
  }
  if (
    /MemoryPoolOutOfMemoryError|MemoryLimitExceeded|OutOfMemory/i.test(code) ||
    /memory pool limit|transaction memory/i.test(message)
  ) {
    const detail = "needs more memory than one explore query may use; narrow it (fewer rows, smaller lists)";
    return new AppError("VALIDATION", `query: ${detail}`, { errors: [{ path: "query", message: detail }] });
  }
  // Every Bolt worker thread is busy (the local Neo4j's NEO4J_LOCAL_BOLT_THREADS): a moment later there is one.
  if (code === "Neo.TransientError.Request.NoThreadsAvailable")
    return new AppError("RATE_LIMITED", "The graph database is busy; retry in a moment", {
      headers: { "Retry-After": "1" },
    });
  if (code === "ServiceUnavailable" || code === "SessionExpired")
    return new AppError("UNAVAILABLE", "The graph database is unreachable; try again later");
  if (code.startsWith("Neo.ClientError.Security"))
    return new AppError("VALIDATION", "query: not permitted on the graph (read-only)", {
      errors: [{ path: "query", message: "not permitted" }],
    });
  if (message.includes(SUBJECT_TOO_LONG.slice(3, -1))) {
    const detail = `=~ matches strings of at most ${REGEX_SUBJECT_LIMIT} characters; this query gave it a longer one`;
    return new AppError("VALIDATION", `query: ${detail}`, { errors: [{ path: "query", message: detail }] });
  }
  // Neo4j reports a shortestPath whose two ends are the same node as a database error, but the query caused it.
  if (/shortest path algorithm does not work when the start and end nodes are the same/i.test(message)) {
    const detail = "shortestPath needs two different nodes; this query gave it the same node at both ends";
    return new AppError("VALIDATION", `query: ${detail}`, { errors: [{ path: "query", message: detail }] });
  }
  if (code.startsWith("Neo.ClientError")) {
    const first = (message.split("\n")[0] ?? "").slice(0, 500);
    return new AppError("VALIDATION", `query: ${first}`, { errors: [{ path: "query", message: first }] });
  }
  return err;
}
