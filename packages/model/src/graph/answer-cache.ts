import { sql } from "@ams/db";
import type { RequestContext } from "../context.ts";
import type { QueryResult } from "./results.ts";

/**
 * Explore and panel answers remembered per replica, so that a repeated query on an unchanged graph is answered from
 * memory instead of by Neo4j. The key is the caller's organization, the workspace, the caller's teams (their
 * visibility), the query text and its parameters; the entry holds the graph revision the answer was read at.
 *
 * Invalidation is by revision, never by time: before answering from memory, the workspace's model revision is read
 * from PostgreSQL (the one read every explore answer already makes, to say how current the graph is). An answer is
 * kept only when the graph showed exactly the model's latest revision (behind 0, read after the rows), and served
 * only while the model is still at that revision. The graph never runs ahead of the model and its revision only
 * grows, so "model at r" means "graph at r": any committed change group (the graph sync then applies it and moves
 * the graph's revision) makes every older answer of the workspace unreachable at once, on every replica, without a
 * message between them. Unreachable entries age out of the LRU.
 *
 * Memory is bounded by bytes (the JSON size of the answers, plus their keys), least recently used first out.
 */
export type GraphAnswerCache = {
  /** The answer from memory when the graph is unchanged since it was kept, otherwise `run()`'s (kept when current). */
  answer(
    ctx: RequestContext,
    workspaceId: string,
    query: string,
    parameters: Record<string, unknown>,
    run: () => Promise<QueryResult>,
  ): Promise<QueryResult>;
  stats(): { entries: number; bytes: number; maxBytes: number; hits: number; misses: number };
};

type Entry = { revision: number; answer: QueryResult; bytes: number };

export function createGraphAnswerCache(maxBytes: number): GraphAnswerCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;

  const drop = (key: string, entry: Entry) => {
    entries.delete(key);
    bytes -= entry.bytes;
  };

  const keep = (key: string, revision: number, answer: QueryResult) => {
    const old = entries.get(key);
    if (old) drop(key, old);
    // Two bytes per character of the key (a JS string), one per byte of the answer's JSON.
    const size = key.length * 2 + Buffer.byteLength(JSON.stringify(answer));
    // One answer may take at most a quarter of the cache: a huge one would push out everything else.
    if (size > maxBytes / 4) return;
    entries.set(key, { revision, answer, bytes: size });
    bytes += size;
    for (const [k, e] of entries) {
      if (bytes <= maxBytes) break;
      drop(k, e);
    }
  };

  return {
    async answer(ctx, workspaceId, query, parameters, run) {
      if (maxBytes <= 0) return run();
      const teams = [...(ctx.teamIds ?? [])].sort();
      const key = JSON.stringify([ctx.organizationId, workspaceId, teams, query, parameters]);
      const cached = entries.get(key);
      if (cached) {
        const model = await modelRevision(ctx, workspaceId);
        if (model === cached.revision) {
          hits++;
          // Most recently used last: the Map's order is the eviction order.
          entries.delete(key);
          entries.set(key, cached);
          return { ...cached.answer, graph: { revision: model, model_revision: model, behind: 0 } };
        }
        drop(key, cached);
      }
      misses++;
      const answer = await run();
      const graph = answer.graph;
      if (graph && graph.revision !== null && graph.behind === 0 && graph.revision === graph.model_revision)
        keep(key, graph.revision, answer);
      return answer;
    },
    stats: () => ({ entries: entries.size, bytes, maxBytes, hits, misses }),
  };
}

async function modelRevision(ctx: RequestContext, workspaceId: string): Promise<number | null> {
  const [row] = await ctx.database.rows<{ revision: string | number }>(
    sql`select revision from workspaces where id = ${workspaceId}`,
  );
  return row ? Number(row.revision) : null;
}
