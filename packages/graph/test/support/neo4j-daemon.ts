import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startLocalNeo4j } from "../../src/local-neo4j.ts";

/**
 * One local Neo4j shared by the graph test files of a test run (started on first use by shared-neo4j.ts). It stays
 * up while any test process renews a lease file in <stateDir>/leases and stops itself 20 s after the last lease
 * went stale, removing its data.
 */
const stateDir = process.argv[2]!;
const leases = join(stateDir, "leases");
mkdirSync(leases, { recursive: true });
const server = await startLocalNeo4j({ dataDir: join(stateDir, "data"), heap: "1g", pageCache: "256m" });
writeFileSync(
  join(stateDir, "server.json.tmp"),
  JSON.stringify({ url: server.url, user: server.user, password: server.password, pid: process.pid }),
);
renameSync(join(stateDir, "server.json.tmp"), join(stateDir, "server.json"));

let idleSince = Date.now();
const timer = setInterval(async () => {
  const now = Date.now();
  const live = readdirSync(leases).some(
    (f) => now - (statSync(join(leases, f), { throwIfNoEntry: false })?.mtimeMs ?? 0) < 15_000,
  );
  if (live) idleSince = now;
  if (now - idleSince < 20_000) return;
  clearInterval(timer);
  rmSync(join(stateDir, "server.json"), { force: true });
  await server.stop();
  rmSync(join(stateDir, "data"), { recursive: true, force: true });
  process.exit(0);
}, 2_000);
