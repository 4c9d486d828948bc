import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startLocalNeo4j } from "../../src/local-neo4j.ts";

/**
 * One local Neo4j shared by the graph test files of a test run (started on first use by neo4j.ts). It stays up while
 * any test process renews a lease file in <stateDir>/leases and stops itself 60 s after the last lease went stale,
 * removing its data. Each daemon has its own data directory: a daemon that is still stopping (its JVM holding the
 * store lock, then deleting its files) never shares one with the daemon started after it. A daemon that cannot start
 * writes why to <stateDir>/failed-<token> (the token is its second argument), so the test waiting for it fails at
 * once with that reason instead of waiting out its deadline.
 */
const stateDir = process.argv[2]!;
const token = process.argv[3] ?? String(process.pid);
const leases = join(stateDir, "leases");
const dataDir = join(stateDir, `data-${process.pid}`);
mkdirSync(leases, { recursive: true });
let server: Awaited<ReturnType<typeof startLocalNeo4j>>;
try {
  server = await startLocalNeo4j({ dataDir, heap: "1g", pageCache: "256m" });
} catch (err) {
  writeFileSync(join(stateDir, `failed-${token}`), String((err as Error)?.stack ?? err));
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
writeFileSync(
  join(stateDir, "server.json.tmp"),
  JSON.stringify({ url: server.url, user: server.user, password: server.password, pid: process.pid }),
);
renameSync(join(stateDir, "server.json.tmp"), join(stateDir, "server.json"));

const serverFile = join(stateDir, "server.json");
const withdrawn = join(stateDir, `server.json.${process.pid}.stopping`);
const anyLive = (now: number) =>
  readdirSync(leases).some((f) => now - (statSync(join(leases, f), { throwIfNoEntry: false })?.mtimeMs ?? 0) < 15_000);

let idleSince = Date.now();
let checking = false;
const timer = setInterval(async () => {
  if (checking) return;
  checking = true;
  try {
    if (anyLive(Date.now())) idleSince = Date.now();
    if (Date.now() - idleSince < 60_000) return;
    // Withdraw the address first, then look once more: a test that read it just before writes its lease before
    // reading, so its lease is visible by now and the server stays.
    let mine = true;
    try {
      renameSync(serverFile, withdrawn);
    } catch {
      mine = false; // a test removed it (the server did not answer): stop without looking again
    }
    await sleep(3_000);
    if (mine && anyLive(Date.now())) {
      renameSync(withdrawn, serverFile);
      idleSince = Date.now();
      return;
    }
    clearInterval(timer);
    rmSync(withdrawn, { force: true });
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  } finally {
    checking = false;
  }
}, 2_000);
