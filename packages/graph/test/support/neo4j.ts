import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import neo4j, { type Driver } from "neo4j-driver";
import { ensureGraphSchema } from "../../src/schema.ts";

export type TestNeo4j = { url: string; user: string; password: string; driver: Driver; stop(): Promise<void> };

const STATE_DIR = join(tmpdir(), `ams-neo4j-test-${process.getuid?.() ?? 0}`);
const DAEMON = new URL("./neo4j-daemon.ts", import.meta.url).pathname;

/**
 * The Neo4j a graph test file talks to: NEO4J_TEST_URL (NEO4J_TEST_USER, NEO4J_TEST_PASSWORD) when given, otherwise
 * one local Neo4j shared by every test file of the run (neo4j-daemon.ts, started by the first file that needs it,
 * kept alive by lease files). Workspaces are random uuids, so files sharing the server never see each other's graphs.
 */
export async function startTestNeo4j(): Promise<TestNeo4j> {
  const given = process.env.NEO4J_TEST_URL;
  const server = given
    ? { url: given, user: process.env.NEO4J_TEST_USER ?? "neo4j", password: process.env.NEO4J_TEST_PASSWORD ?? "" }
    : await sharedServer();
  const driver = neo4j.driver(server.url, neo4j.auth.basic(server.user, server.password));
  await ensureGraphSchema(driver);
  return {
    ...server,
    driver,
    stop: async () => {
      await driver.close();
      server.release?.();
    },
  };
}

type Shared = { url: string; user: string; password: string; pid?: number; release?: () => void };

async function sharedServer(): Promise<Shared> {
  mkdirSync(join(STATE_DIR, "leases"), { recursive: true });
  const lease = join(STATE_DIR, "leases", `${process.pid}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(lease, "");
  const renew = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(lease, now, now);
    } catch {}
  }, 3_000);
  renew.unref();
  const release = () => {
    clearInterval(renew);
    rmSync(lease, { force: true });
  };
  try {
    const server = (await usable()) ?? (await startDaemon());
    return { ...server, release };
  } catch (err) {
    release();
    throw err;
  }
}

async function usable(): Promise<Shared | undefined> {
  const file = join(STATE_DIR, "server.json");
  if (!existsSync(file)) return undefined;
  const server = JSON.parse(readFileSync(file, "utf8")) as Shared;
  try {
    process.kill(server.pid!, 0);
  } catch {
    return undefined;
  }
  const driver = neo4j.driver(server.url, neo4j.auth.basic(server.user, server.password));
  try {
    await driver.verifyConnectivity();
    return server;
  } catch {
    return undefined;
  } finally {
    await driver.close();
  }
}

async function startDaemon(): Promise<Shared> {
  const lock = join(STATE_DIR, "start.lock");
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a process that died while starting the server is abandoned after 11 minutes.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 660_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      const ready = await usable();
      if (ready) return ready;
    }
  }
  try {
    const ready = await usable();
    if (ready) return ready;
    rmSync(join(STATE_DIR, "server.json"), { force: true });
    const token = `${process.pid}-${Math.random().toString(36).slice(2)}`;
    const failed = join(STATE_DIR, `failed-${token}`);
    spawn(process.execPath, [DAEMON, STATE_DIR, token], { detached: true, stdio: "ignore" }).unref();
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      await sleep(500);
      const server = await usable();
      if (server) return server;
      if (existsSync(failed)) {
        const reason = readFileSync(failed, "utf8");
        rmSync(failed, { force: true });
        throw new Error(`the shared test Neo4j could not start: ${reason}`);
      }
    }
    throw new Error(`the shared test Neo4j did not start within 10 minutes (state in ${STATE_DIR})`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
