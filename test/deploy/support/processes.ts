import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server, Socket } from "node:net";

export { freePort, waitFor } from "../../../bench/processes.ts";

export type ServiceProcess = {
  name: string;
  proc: ChildProcess;
  /** The JSON lines it wrote (stdout and stderr). */
  lines: () => Record<string, unknown>[];
  raw: () => string;
  /** Resolves with the exit code once it exits by itself. */
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
};

/** The uid/gid the images run as (1000), when this process may switch to it (it runs as root). */
export const imageUser = process.getuid?.() === 0 ? { uid: 1000, gid: 1000 } : {};

/**
 * Starts `node <script>` with exactly the given environment (plus PATH), as the images' non-root user where the
 * machine allows, collecting its JSON log lines.
 */
export function startProcess(name: string, script: string, env: Record<string, string>): ServiceProcess {
  const proc = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...imageUser,
  });
  let out = "";
  proc.stdout!.on("data", (d) => {
    out += d;
  });
  proc.stderr!.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  return {
    name,
    proc,
    raw: () => out,
    exited,
    lines: () =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => {
          try {
            return JSON.parse(l) as Record<string, unknown>;
          } catch {
            return {};
          }
        }),
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** A TCP forwarder that can be switched on and off: a dependency that "comes up" later or goes away. */
export function tcpForwarder(port: number, target: { host: string; port: number }) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  return {
    async up() {
      server = createServer((client) => {
        const upstream = new Socket();
        sockets.add(client).add(upstream);
        upstream.connect(target.port, target.host);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
      });
      await new Promise<void>((r) => server!.listen(port, "127.0.0.1", () => r()));
    },
    async down() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
      server = undefined;
    },
  };
}
