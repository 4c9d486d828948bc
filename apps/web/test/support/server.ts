import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureWebBuild } from "../../build.ts";

const repo = new URL("../../../../", import.meta.url).pathname;

export type RunningServer = { base: string; stop(): Promise<void>; output(): string };

/** A loopback port nobody listens on (for a server whose address must be known before it starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The whole service as `./pnpm start` runs it (build the UI if stale, then control's main.ts in standalone shape,
 * demo accounts seeded), on a fresh embedded database in a temporary folder and a free port. No local Neo4j: the
 * modeler does not need the graph, and the graph has its own suites.
 */
export async function startServer(
  extraEnv: Record<string, string> = {},
  at?: { port: number },
): Promise<RunningServer> {
  await ensureWebBuild();
  const dataDir = mkdtempSync(join(tmpdir(), "ams-web-"));
  const port = at?.port ?? (await freePort());
  let output = "";
  // Embedded defaults: no external database, queue or graph, whatever the test run's environment says.
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of ["DATABASE_URL", "NATS_URL", "NEO4J_URL", "TENANT_URL", "MCP_URL"]) delete env[name];
  const child: ChildProcess = spawn(process.execPath, [join(repo, "services/control/src/main.ts")], {
    cwd: repo,
    env: {
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NEO4J_LOCAL: "false",
      DEMO_SEED: "true",
      NODE_ENV: "development",
      // Links the server writes (invitations) point at this instance.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.status < 500 || res.status === 503) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the server did not answer within 180 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
