import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import neo4j, { type Driver } from "neo4j-driver";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type LocalNeo4j, startLocalNeo4j } from "../src/local-neo4j.ts";
import { missingJavaTools, resolveNeo4j } from "../src/neo4j-config.ts";

describe("resolveNeo4j", () => {
  test("NEO4J_URL wins, with its user and password", () => {
    expect(
      resolveNeo4j({ NEO4J_URL: "neo4j+s://graph.example:7687", NEO4J_USER: "app", NEO4J_PASSWORD: "s3cret-pw" }),
    ).toEqual({ kind: "external", url: "neo4j+s://graph.example:7687", user: "app", password: "s3cret-pw" });
  });

  test("a URL that is not bolt or neo4j fails at start-up", () => {
    expect(() => resolveNeo4j({ NEO4J_URL: "http://localhost:7474" })).toThrow(/bolt:\/\/ or neo4j:\/\//);
  });

  test("without NEO4J_URL, Java or Maven there is no graph and the message says how to enable it", () => {
    const choice = resolveNeo4j({ PATH: "/nonexistent" });
    expect(choice.kind).toBe("none");
    expect(choice.kind === "none" && choice.message).toMatch(/java and mvn not found.*NEO4J_URL/);
  });

  // Java 17 and Maven are part of the test setup (scripts/setup-test-services.sh installs them).
  test("without NEO4J_URL but with Java and Maven it is local, under DATA_DIR", () => {
    expect(missingJavaTools()).toEqual([]);
    const choice = resolveNeo4j({ PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME });
    expect(choice).toMatchObject({ kind: "local", heap: "512m", pageCache: "128m", dataDir: resolve("data/neo4j") });
    const moved = resolveNeo4j({ PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME, DATA_DIR: "/srv/ams" });
    expect(moved).toMatchObject({ dataDir: "/srv/ams/neo4j" });
  });

  test("the local Neo4j is bounded by default (1 processor, 64 Bolt threads, niceness 10); bad bounds fail", () => {
    const env = { PATH: process.env.PATH, JAVA_HOME: process.env.JAVA_HOME };
    expect(resolveNeo4j(env)).toMatchObject({ kind: "local", cpus: 1, boltThreads: 64, nice: 10 });
    expect(
      resolveNeo4j({ ...env, NEO4J_LOCAL_CPUS: "2", NEO4J_LOCAL_BOLT_THREADS: "16", NEO4J_LOCAL_NICE: "0" }),
    ).toMatchObject({ cpus: 2, boltThreads: 16, nice: 0 });
    expect(() => resolveNeo4j({ ...env, NEO4J_LOCAL_NICE: "20" })).toThrow(
      /NEO4J_LOCAL_NICE must be a whole number from 0 to 19, got "20"/,
    );
    expect(() => resolveNeo4j({ ...env, NEO4J_LOCAL_CPUS: "half" })).toThrow(/NEO4J_LOCAL_CPUS/);
  });
});

const PASSWORD = "first-password";

describe("local Neo4j started from Maven Central artifacts", () => {
  let dataDir: string;
  let server: LocalNeo4j;
  let driver: Driver;
  const log: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "local-neo4j-"));
    const started = performance.now();
    // The first run builds the launcher, which downloads Neo4j (~125 MB) from Maven Central.
    server = await startLocalNeo4j({ dataDir, password: PASSWORD, log: (line) => log.push(line) });
    console.info(`local Neo4j ready at ${server.url} in ${Math.round(performance.now() - started)} ms`);
    driver = neo4j.driver(server.url, neo4j.auth.basic(server.user, server.password));
  }, 600_000);

  afterAll(async () => {
    await driver?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test("listens on 127.0.0.1 and logs in as neo4j with the given password", () => {
    expect(server.url).toMatch(/^bolt:\/\/127\.0\.0\.1:\d+$/);
    expect(server).toMatchObject({ user: "neo4j", password: PASSWORD });
  });

  test("creates a node and reads it back", async () => {
    await driver.executeQuery("CREATE (:Element:ApplicationComponent {id: $id, name: $name})", {
      id: "id-1",
      name: "CRM",
    });
    const { records } = await driver.executeQuery(
      "MATCH (e:Element {id: $id}) RETURN e.name AS name, labels(e) AS labels",
      { id: "id-1" },
      { routing: neo4j.routing.READ },
    );
    expect(records.map((r) => r.get("name"))).toEqual(["CRM"]);
    expect(records[0]?.get("labels")).toEqual(expect.arrayContaining(["Element", "ApplicationComponent"]));
  });

  test("the server limits every transaction: 120 s and 256 MB unless the client asks for less", async () => {
    const { records } = await driver.executeQuery(
      "SHOW SETTINGS YIELD name, value WHERE name IN ['db.transaction.timeout', 'db.memory.transaction.max'] " +
        "RETURN name, value ORDER BY name",
    );
    expect(records.map((r) => [r.get("name"), r.get("value")])).toEqual([
      ["db.memory.transaction.max", "256.00MiB"],
      ["db.transaction.timeout", "2m"],
    ]);
  });

  test("refuses a wrong password", async () => {
    const intruder = neo4j.driver(server.url, neo4j.auth.basic("neo4j", "not-the-password"));
    try {
      await expect(intruder.executeQuery("RETURN 1")).rejects.toMatchObject({
        code: "Neo.ClientError.Security.Unauthorized",
      });
    } finally {
      await intruder.close();
    }
  });

  test("stop() ends the JVM; a restart keeps the data and takes a new password", async () => {
    await driver.close();
    await server.stop();
    expect(isAlive(server.pid)).toBe(false);

    const started = performance.now();
    // Restarted bounded as the standalone shape starts it (resolveNeo4j's defaults but 4 Bolt threads).
    server = await startLocalNeo4j({
      dataDir,
      password: "second-password",
      cpus: 1,
      boltThreads: 4,
      nice: 10,
      // At niceness 10 on a machine busy with other work, the JVM waits for a core: allowed as the standalone allows it.
      startTimeoutMs: 600_000,
      log: (line) => log.push(line),
    });
    console.info(`local Neo4j restarted on existing data in ${Math.round(performance.now() - started)} ms`);
    driver = neo4j.driver(server.url, neo4j.auth.basic("neo4j", "second-password"));
    const { records } = await driver.executeQuery("MATCH (e:Element {id: 'id-1'}) RETURN e.name AS name");
    expect(records.map((r) => r.get("name"))).toEqual(["CRM"]);

    const stale = neo4j.driver(server.url, neo4j.auth.basic("neo4j", PASSWORD));
    try {
      await expect(stale.executeQuery("RETURN 1")).rejects.toMatchObject({
        code: "Neo.ClientError.Security.Unauthorized",
      });
    } finally {
      await stale.close();
    }
  }, 700_000);

  test("bounded: niceness 10 on every JVM thread, sized for one processor, at most 4 Bolt threads", async () => {
    const threads = readdirSync(`/proc/${server.pid}/task`);
    expect(threads.length).toBeGreaterThan(10);
    for (const tid of threads) {
      const stat = readFileSync(`/proc/${server.pid}/task/${tid}/stat`, "utf8");
      // Fields after the command name in parentheses: state is the 3rd field, nice the 19th.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      expect(Number(fields[16])).toBe(10);
    }
    expect(readFileSync(`/proc/${server.pid}/cmdline`, "utf8").split("\0")).toContain("-XX:ActiveProcessorCount=1");
    const { records } = await driver.executeQuery(
      "SHOW SETTINGS YIELD name, value WHERE name STARTS WITH 'server.bolt.thread_pool_m' RETURN name, value ORDER BY name",
    );
    expect(records.map((r) => [r.get("name"), r.get("value")])).toEqual([
      ["server.bolt.thread_pool_max_size", "4"],
      ["server.bolt.thread_pool_min_size", "2"],
    ]);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
