import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

/** Where the graph lives: a Neo4j 5 the operator points at, one we start locally, or none at all. */
export type Neo4jChoice =
  | { kind: "external"; url: string; user: string; password: string }
  | {
      kind: "local";
      dataDir: string;
      boltPort?: number;
      password?: string;
      heap: string;
      pageCache: string;
      cpus: number;
      boltThreads: number;
      nice: number;
    }
  | { kind: "none"; message: string };

type Env = Record<string, string | undefined>;

const URL_SCHEMES = ["bolt:", "bolt+s:", "bolt+ssc:", "neo4j:", "neo4j+s:", "neo4j+ssc:"];

export const ENABLE_GRAPH_HINT =
  "Graph features need Neo4j 5: set NEO4J_URL (with NEO4J_USER and NEO4J_PASSWORD) to a running server, " +
  "or install Java 17+ and Maven so that a local Neo4j can be started from Maven Central artifacts.";

/**
 * Decides once, at start-up, which Neo4j to use:
 * NEO4J_URL set -> that server (NEO4J_USER, default "neo4j"; NEO4J_PASSWORD);
 * otherwise, when `java` and `mvn` are installed and NEO4J_LOCAL is not "false" -> a local Neo4j in NEO4J_LOCAL_DIR
 * (default `$DATA_DIR/neo4j`, DATA_DIR defaulting to ./data as for PGlite; NEO4J_LOCAL_BOLT_PORT, NEO4J_LOCAL_HEAP, NEO4J_LOCAL_PAGE_CACHE,
 * and NEO4J_PASSWORD as its password when given), bounded so that it does not starve Node on a small machine:
 * NEO4J_LOCAL_CPUS processors (default 1), NEO4J_LOCAL_BOLT_THREADS Bolt threads (default 64), niceness
 * NEO4J_LOCAL_NICE (default 10, its start-up included);
 * otherwise none, with a message that says how to enable graph features.
 * Throws on a malformed value so that a typo fails at start-up instead of at the first graph query.
 */
export function resolveNeo4j(env: Env = process.env): Neo4jChoice {
  const url = env.NEO4J_URL?.trim();
  if (url) {
    if (!URL_SCHEMES.some((scheme) => url.startsWith(scheme))) {
      throw new Error(`NEO4J_URL must be a bolt:// or neo4j:// URL (optionally +s or +ssc), got "${url}"`);
    }
    return { kind: "external", url, user: env.NEO4J_USER || "neo4j", password: env.NEO4J_PASSWORD ?? "" };
  }
  if (env.NEO4J_LOCAL === "false" || env.NEO4J_LOCAL === "0") {
    return { kind: "none", message: `NEO4J_URL is not set and NEO4J_LOCAL=${env.NEO4J_LOCAL}. ${ENABLE_GRAPH_HINT}` };
  }
  const missing = missingJavaTools(env);
  if (missing.length > 0) {
    return {
      kind: "none",
      message: `NEO4J_URL is not set and ${missing.join(" and ")} not found. ${ENABLE_GRAPH_HINT}`,
    };
  }
  const password = env.NEO4J_PASSWORD || undefined;
  if (password !== undefined && password.length < 8) {
    throw new Error("NEO4J_PASSWORD must have at least 8 characters for the local Neo4j");
  }
  return {
    kind: "local",
    dataDir: resolve(env.NEO4J_LOCAL_DIR || join(env.DATA_DIR || "./data", "neo4j")),
    boltPort: parsePort(env.NEO4J_LOCAL_BOLT_PORT),
    password,
    heap: env.NEO4J_LOCAL_HEAP || "512m",
    pageCache: env.NEO4J_LOCAL_PAGE_CACHE || "128m",
    cpus: whole(env, "NEO4J_LOCAL_CPUS", 1, 1, 1024),
    boltThreads: whole(env, "NEO4J_LOCAL_BOLT_THREADS", 64, 1, 10_000),
    nice: whole(env, "NEO4J_LOCAL_NICE", 10, 0, 19),
  };
}

/** The names of the tools the local Neo4j needs that are not installed ("java", "mvn"). */
export function missingJavaTools(env: Env = process.env): string[] {
  const missing: string[] = [];
  if (!javaExecutable(env)) missing.push("java");
  if (!findOnPath("mvn", env)) missing.push("mvn");
  return missing;
}

/** `$JAVA_HOME/bin/java` when JAVA_HOME is set, otherwise `java` from PATH. */
export function javaExecutable(env: Env = process.env): string | undefined {
  if (env.JAVA_HOME) {
    const candidate = join(env.JAVA_HOME, "bin", "java");
    if (isExecutable(candidate)) return candidate;
  }
  return findOnPath("java", env);
}

export function findOnPath(name: string, env: Env = process.env): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function whole(env: Env, name: string, fallback: number, min: number, max: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

function parsePort(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`NEO4J_LOCAL_BOLT_PORT must be a port number, got "${text}"`);
  }
  return port;
}
