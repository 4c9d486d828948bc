import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { ENABLE_GRAPH_HINT, findOnPath, javaExecutable } from "./neo4j-config.ts";

export type LocalNeo4jOptions = {
  /** Data and logs of this Neo4j (created if missing); `<dataDir>/logs/debug.log` has Neo4j's own log. */
  dataDir: string;
  /** Bolt port on 127.0.0.1; a free one is picked when omitted. */
  boltPort?: number;
  /** Password of user `neo4j` (8+ characters); random when omitted. Ignored with `auth: false`. */
  password?: string;
  auth?: boolean;
  /** JVM heap cap, default 512m. */
  heap?: string;
  /** Neo4j page cache, default 128m. */
  pageCache?: string;
  /**
   * Processors the JVM sizes itself for (-XX:ActiveProcessorCount): its GC and JIT threads, Netty's event loops and
   * Neo4j's own pools. Default: every processor of the machine.
   */
  cpus?: number;
  /** Most Bolt worker threads (one per running transaction); default Neo4j's own (400). */
  boltThreads?: number;
  /**
   * Niceness of the JVM (0-19, through `nice`): above 0 the JVM, its start-up included, gives way to the processes
   * beside it when the processors are busy. Default 0.
   */
  nice?: number;
  /** More JVM flags, after the defaults (so they can override them). */
  jvmFlags?: string[];
  log?: (line: string) => void;
  /** How long the JVM may take to report readiness, default 120 s (the Maven build before it is not counted). */
  startTimeoutMs?: number;
};

export type LocalNeo4j = {
  url: string;
  user: string;
  password: string;
  pid: number;
  /** Resolves when the JVM has exited, for whatever reason (stop() included), with how it ended. */
  exited: Promise<string>;
  stop(): Promise<void>;
};

const LAUNCHER_DIR = resolve(import.meta.dirname, "../../../tools/neo4j-launcher");
const TARGET_DIR = join(LAUNCHER_DIR, "target");
const MAIN_CLASS = "ams.neo4jlauncher.LocalNeo4j";
const READY = /^NEO4J_READY (\S+)/;

/**
 * The module openings Neo4j 5's own start scripts add (without them it falls back to slower, leakier paths for
 * direct buffers and file channels), plus the GC settings of its default configuration. No -XX:+AlwaysPreTouch:
 * it would make the whole heap resident at start. C1-only JIT (TieredStopAtLevel=1) halves the CPU spent until
 * ready (about 11 s instead of 20 s here) and trims RSS; fine for development-sized graphs. Pass
 * `jvmFlags: ["-XX:TieredStopAtLevel=4"]` for full C2 optimization.
 */
export const NEO4J_JVM_FLAGS = [
  "--add-opens=java.base/java.nio=ALL-UNNAMED",
  "--add-opens=java.base/java.io=ALL-UNNAMED",
  "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
  "--enable-native-access=ALL-UNNAMED",
  "-Dlog4j2.disable.jmx=true",
  "-Dio.netty.tryReflectionSetAccessible=true",
  "-Djdk.nio.maxCachedBufferSize=1024",
  "-XX:+UseG1GC",
  "-XX:-OmitStackTraceInFastThrow",
  "-XX:+DisableExplicitGC",
  "-XX:+ExitOnOutOfMemoryError",
  "-XX:TieredStopAtLevel=1",
];

/** Starts Neo4j Community embedded in a child JVM, building the launcher with Maven first when needed. */
export async function startLocalNeo4j(opts: LocalNeo4jOptions): Promise<LocalNeo4j> {
  const log = opts.log ?? (() => {});
  const auth = opts.auth !== false;
  const password = auth ? (opts.password ?? randomBytes(18).toString("base64url")) : "";
  if (auth && password.length < 8) throw new Error("the local Neo4j password needs at least 8 characters");
  const java = await requireJava17();
  const classpath = await ensureLauncherBuilt(log);
  mkdirSync(opts.dataDir, { recursive: true });

  const args = [
    ...NEO4J_JVM_FLAGS,
    `-Xmx${opts.heap ?? "512m"}`,
    ...(opts.cpus ? [`-XX:ActiveProcessorCount=${opts.cpus}`] : []),
    ...(opts.jvmFlags ?? []),
    "-cp",
    classpath,
    MAIN_CLASS,
    "--home",
    resolve(opts.dataDir),
    "--bolt-port",
    String(opts.boltPort ?? 0),
    "--page-cache",
    opts.pageCache ?? "128m",
    "--exit-on-stdin-close",
    ...(opts.boltThreads ? ["--bolt-threads", String(opts.boltThreads)] : []),
    ...(auth ? [] : ["--no-auth"]),
  ];
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("NEO4J_LAUNCHER_")));
  // Through the environment, not argv, so that the password does not show up in `ps`.
  if (auth) env.NEO4J_LAUNCHER_PASSWORD = password;
  // stdin stays an open pipe: when this process dies, the JVM sees end of file and shuts down.
  // `nice` execs the JVM in its place: the pid stays the JVM's, and every thread it starts inherits the niceness.
  const niced = opts.nice && opts.nice > 0 ? findOnPath("nice") : undefined;
  const child = niced
    ? spawn(niced, ["-n", String(opts.nice), java, ...args], { env, stdio: ["pipe", "pipe", "pipe"] })
    : spawn(java, args, { env, stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<string>((done) =>
    child.once("exit", (code, signal) => done(signal ? `killed by ${signal}` : `exit code ${code}`)),
  );
  const tail: string[] = [];
  const remember = (line: string) => {
    log(line);
    if (/^\s+(at |\.\.\. \d+ more)/.test(line)) return; // stack frames: the debug.log has them
    tail.push(line);
    if (tail.length > 40) tail.shift();
  };
  createInterface({ input: child.stderr }).on("line", remember);

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(killer);
  };

  const url = await new Promise<string>((ready, fail) => {
    const failWith = (reason: string) =>
      fail(new Error(`local Neo4j ${reason}; see ${join(opts.dataDir, "logs", "debug.log")}\n${tail.join("\n")}`));
    const timer = setTimeout(() => {
      failWith(`did not report readiness within ${(opts.startTimeoutMs ?? 120_000) / 1000} s`);
      void stop();
    }, opts.startTimeoutMs ?? 120_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      failWith(`could not be started: ${error.message}`);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      failWith(`exited (${signal ?? `code ${code}`}) before it was ready`);
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      const match = READY.exec(line);
      if (!match) return remember(line);
      clearTimeout(timer);
      log(line);
      ready(match[1] ?? "");
    });
  });
  return { url, user: auth ? "neo4j" : "", password, pid: child.pid ?? -1, exited, stop };
}

async function requireJava17(): Promise<string> {
  const java = javaExecutable();
  const missing = [java ? undefined : "java (17 or newer)", findOnPath("mvn") ? undefined : "mvn (Maven)"].filter(
    (name) => name !== undefined,
  );
  if (!java || missing.length > 0) {
    throw new Error(`Cannot start a local Neo4j: ${missing.join(" and ")} not found. ${ENABLE_GRAPH_HINT}`);
  }
  const { output } = await run(java, ["-version"]);
  const major = Number(/version "(?:1\.)?(\d+)/.exec(output)?.[1] ?? 0);
  if (major < 17) {
    throw new Error(
      `Cannot start a local Neo4j: ${java} is Java ${major || "?"}, Neo4j 5 needs 17 or newer. ${ENABLE_GRAPH_HINT}`,
    );
  }
  return java;
}

let building: Promise<string> | undefined;

/** Builds tools/neo4j-launcher once (jar + runtime dependencies in target/lib) and returns the classpath. */
export function ensureLauncherBuilt(log: (line: string) => void = () => {}): Promise<string> {
  if (!building) {
    building = buildUnderLock(log);
    building.catch(() => {
      building = undefined;
    });
  }
  return building;
}

const STAMP = join(TARGET_DIR, "launcher.stamp");
const LOCK = join(TARGET_DIR, ".build-lock");

async function buildUnderLock(log: (line: string) => void): Promise<string> {
  const classpath = [join(TARGET_DIR, "neo4j-launcher.jar"), join(TARGET_DIR, "lib", "*")].join(delimiter);
  if (isBuildFresh()) return classpath;
  mkdirSync(TARGET_DIR, { recursive: true });
  await acquireLock(log);
  try {
    if (isBuildFresh()) return classpath; // another process built it while we waited
    log("building tools/neo4j-launcher with Maven (the first build downloads Neo4j from Maven Central)");
    const started = Date.now();
    const { code, output } = await run("mvn", ["-q", "-B", "-f", join(LAUNCHER_DIR, "pom.xml"), "package"]);
    if (code !== 0) {
      throw new Error(`Maven build of tools/neo4j-launcher failed (exit ${code}):\n${output.slice(-4000)}`);
    }
    writeFileSync(STAMP, `${new Date().toISOString()}\n`);
    log(`launcher built in ${Math.round((Date.now() - started) / 1000)} s`);
    return classpath;
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

/** Fresh when the stamp written after a successful build is newer than the pom and every source file. */
function isBuildFresh(): boolean {
  if (!existsSync(STAMP) || !existsSync(join(TARGET_DIR, "neo4j-launcher.jar"))) return false;
  const built = statSync(STAMP).mtimeMs;
  const sources = [join(LAUNCHER_DIR, "pom.xml"), ...listFiles(join(LAUNCHER_DIR, "src"))];
  return sources.every((file) => statSync(file).mtimeMs <= built);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A directory as a lock between processes (parallel test files); one older than 15 minutes is abandoned. */
async function acquireLock(log: (line: string) => void): Promise<void> {
  let announced = false;
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 15 * 60_000) {
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (!announced) log("waiting for another process building tools/neo4j-launcher");
    announced = true;
    await sleep(500);
  }
}

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", fail);
    child.once("close", (code) => done({ code: code ?? 1, output }));
  });
}
