import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";

const fixture = fileURLToPath(new URL("./fixtures/slow-service.ts", import.meta.url));
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
});

async function start(env: Record<string, string> = {}) {
  const proc = spawn(process.execPath, [fixture], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let out = "";
  proc.stdout!.on("data", (d) => {
    out += d;
  });
  proc.stderr!.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    proc.once("exit", (code) => resolve({ code, at: Date.now() })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture did not start: ${out}`)), 20_000);
    proc.stdout!.on("data", () => {
      const m = /\{"listening":(\d+)\}/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  return { proc, port, exited, output: () => out };
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("SIGTERM (the graceful stop every service runs)", () => {
  test("a slow request in flight completes, a new connection is refused, the process exits 0 within the bound", async () => {
    const { proc, port, exited, output } = await start({ SHUTDOWN_DRAIN_MS: "5000" });
    const slow = get(port, "/slow?ms=1500");
    await sleep(300);
    const signalled = Date.now();
    proc.kill("SIGTERM");
    await sleep(150);
    await expect(get(port, "/slow?ms=1")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(await slow).toEqual({ status: 200, body: "finished" });
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalled).toBeLessThan(5000);
    expect(at - signalled).toBeGreaterThanOrEqual(1000); // it waited for the request rather than dropping it
    const lines = output()
      .trim()
      .split("\n")
      .filter((l) => l.startsWith('{"time"'))
      .map((l) => JSON.parse(l).msg);
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(/SIGTERM: draining 1 request/), "resources closed", "stopped"]),
    );
  });

  test("a request longer than the bound is cut off and the process still exits, with status 1, soon after", async () => {
    const { proc, port, exited } = await start({ SHUTDOWN_DRAIN_MS: "500" });
    const slow = get(port, "/slow?ms=20000").catch((err) => err);
    await sleep(200);
    const signalled = Date.now();
    proc.kill("SIGTERM");
    const { code, at } = await exited;
    expect(code).toBe(1);
    expect(at - signalled).toBeLessThan(3000);
    expect(await slow).toMatchObject({ code: "ECONNRESET" });
  });

  test("a close that hangs: the process exits by itself once drain + close bound has passed (before the pod's SIGKILL)", async () => {
    const { proc, exited, output } = await start({
      SHUTDOWN_DRAIN_MS: "300",
      SHUTDOWN_CLOSE_MS: "1500",
      HANG_CLOSE: "1",
    });
    const signalled = Date.now();
    proc.kill("SIGTERM");
    const { code, at } = await exited;
    expect(code).toBe(1);
    expect(at - signalled).toBeGreaterThanOrEqual(1800 - 100);
    expect(at - signalled).toBeLessThan(4000);
    expect(output()).toContain("shutdown did not finish in time");
  });
});
