import type { Database } from "@ams/db";
import { describe, expect, test } from "vitest";
import type { RequestContext } from "../../src/context.ts";
import { createGraphAnswerCache } from "../../src/graph/answer-cache.ts";
import type { QueryResult } from "../../src/graph/results.ts";

/**
 * The answer cache's own bookkeeping, without a graph: kept only when the graph showed the model's latest revision,
 * served only while the model is there, least recently used out first once the bytes exceed the bound.
 * (services/control/test/gateway/explore-cache.test.ts runs it through the gateway on real PostgreSQL and Neo4j.)
 */
function setup(maxBytes: number) {
  const model = { revision: 5 };
  const database = { rows: async () => [{ revision: model.revision }] } as unknown as Database;
  const ctx = { database, organizationId: "o", teamIds: [] } as unknown as RequestContext;
  let runs = 0;
  const answer = (
    rows: string[][],
    graph: QueryResult["graph"] = { revision: 5, model_revision: 5, behind: 0 },
  ): QueryResult => ({
    columns: ["name"],
    rows,
    nodes: [],
    relationships: [],
    truncated: false,
    rowCap: 1000,
    graph,
  });
  const run = (rows: string[][], graph?: QueryResult["graph"]) => async () => {
    runs++;
    return answer(rows, graph);
  };
  return { cache: createGraphAnswerCache(maxBytes), ctx, model, run, runs: () => runs };
}

describe("graph answer cache", () => {
  test("a graph behind its model is never kept; a current one is, until the model moves", async () => {
    const { cache, ctx, model, run, runs } = setup(1 << 20);
    await cache.answer(ctx, "w", "q", {}, run([["a"]], { revision: 4, model_revision: 5, behind: 1 }));
    await cache.answer(ctx, "w", "q", {}, run([["a"]]));
    expect(runs()).toBe(2);
    expect((await cache.answer(ctx, "w", "q", {}, run([["b"]]))).rows).toEqual([["a"]]);
    expect(runs()).toBe(2);
    model.revision = 6;
    expect(
      (await cache.answer(ctx, "w", "q", {}, run([["c"]], { revision: 6, model_revision: 6, behind: 0 }))).rows,
    ).toEqual([["c"]]);
    expect(runs()).toBe(3);
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 1, misses: 3 });
  });

  test("parameters and teams are part of the key", async () => {
    const { cache, ctx, run, runs } = setup(1 << 20);
    await cache.answer(ctx, "w", "q", { id: 1 }, run([["one"]]));
    expect((await cache.answer(ctx, "w", "q", { id: 2 }, run([["two"]]))).rows).toEqual([["two"]]);
    const teamed = { ...ctx, teamIds: ["t"] };
    expect((await cache.answer(teamed, "w", "q", { id: 1 }, run([["team"]]))).rows).toEqual([["team"]]);
    expect(runs()).toBe(3);
  });

  test("bounded by bytes: the least recently used answer goes first; none larger than a quarter is kept", async () => {
    const big = "x".repeat(300);
    const { cache, ctx, run, runs } = setup(3_000);
    for (const q of ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"]) await cache.answer(ctx, "w", q, {}, run([[big]]));
    expect(cache.stats().bytes).toBeLessThanOrEqual(3_000);
    const kept = cache.stats().entries;
    expect(kept).toBeGreaterThan(1);
    expect(kept).toBeLessThan(8);
    // q8 was used last: still there; q1 was used first: gone.
    const before = runs();
    await cache.answer(ctx, "w", "q8", {}, run([[big]]));
    expect(runs()).toBe(before);
    await cache.answer(ctx, "w", "q1", {}, run([[big]]));
    expect(runs()).toBe(before + 1);
    await cache.answer(ctx, "w", "huge", {}, run([["y".repeat(2_000)]]));
    await cache.answer(ctx, "w", "huge", {}, run([["y".repeat(2_000)]]));
    expect(runs()).toBe(before + 3);
  });

  test("0 bytes keeps nothing", async () => {
    const { cache, ctx, run, runs } = setup(0);
    await cache.answer(ctx, "w", "q", {}, run([["a"]]));
    await cache.answer(ctx, "w", "q", {}, run([["a"]]));
    expect(runs()).toBe(2);
    expect(cache.stats().entries).toBe(0);
  });
});
