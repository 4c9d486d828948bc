import type { Database } from "@ams/db";
import { silentLogger } from "@ams/shared";
import { describe, expect, test } from "vitest";
import { startGraphInBackground } from "../src/background.ts";

// No database access happens on these paths (they decide before anything starts).
const database = {} as Database;

describe("startGraphInBackground", () => {
  test("a malformed graph setting stops the start with its name", () => {
    expect(() => startGraphInBackground({ database, env: { NEO4J_LOCAL: "false", GRAPH_BATCH_SIZE: "5" } })).toThrow(
      /GRAPH_BATCH_SIZE/,
    );
    expect(() => startGraphInBackground({ database, env: { NEO4J_URL: "http://graph:7474" } })).toThrow(
      /bolt:\/\/ or neo4j:\/\//,
    );
  });

  test("without any Neo4j the graph is off: routes get how to enable it, health says not configured", async () => {
    const graph = startGraphInBackground({ database, env: { NEO4J_LOCAL: "false" } });
    await graph.ready;
    expect(graph.handle.get()).toBeUndefined();
    expect(graph.handle.unavailable()).toMatch(/not enabled.*NEO4J_URL/);
    expect(graph.health).toEqual({});
    await graph.close();
  });

  test("an unreachable Neo4j: the start goes on, the routes and health say why", async () => {
    const graph = startGraphInBackground({
      database,
      env: { NEO4J_URL: "bolt://127.0.0.1:1", NEO4J_PASSWORD: "irrelevant" },
      log: silentLogger,
    });
    expect(graph.handle.unavailable()).toMatch(/starting/);
    await graph.ready;
    expect(graph.handle.get()).toBeUndefined();
    expect(graph.handle.unavailable()).toMatch(/could not be started/);
    await expect(graph.health.graph!()).rejects.toThrow(/could not be started/);
    await graph.close();
  });
});
