import { describe, expect, test } from "vitest";
import { createLogger, memoryLogger } from "../src/index.ts";

describe("the JSON logger", () => {
  test("writes one parseable JSON object per line with time, level, service, msg and the fields", () => {
    const lines: { line: string; level: string }[] = [];
    const log = createLogger({
      service: "tenant",
      write: (line, level) => lines.push({ line, level }),
      clock: () => new Date("2026-01-02T03:04:05.000Z"),
    });
    log.info("listening", { port: 8081 });
    log.error("unhandled error", { err: Object.assign(new Error("boom"), { code: "E1" }) });
    expect(lines.map((l) => l.level)).toEqual(["info", "error"]);
    expect(lines.every((l) => !l.line.includes("\n"))).toBe(true);
    expect(JSON.parse(lines[0]!.line)).toEqual({
      time: "2026-01-02T03:04:05.000Z",
      level: "info",
      service: "tenant",
      msg: "listening",
      port: 8081,
    });
    const error = JSON.parse(lines[1]!.line);
    expect(error.err).toMatchObject({ name: "Error", message: "boom", code: "E1" });
    expect(error.err.stack).toContain("boom");
  });

  test("a child carries its fields on every line; a call's own fields win", () => {
    const log = memoryLogger("control");
    const child = log.child({ request_id: "r-1", route: "a" });
    child.warn("slow", { route: "b" });
    expect(log.records[0]).toMatchObject({ level: "warn", service: "control", request_id: "r-1", route: "b" });
  });

  test("values JSON cannot hold do not break the line", () => {
    const log = memoryLogger();
    const cyclic: Record<string, unknown> = { name: "x" };
    cyclic.self = cyclic;
    log.info("odd", { big: 10n, cyclic, gone: undefined });
    expect(log.records[0]).toMatchObject({ big: "10", cyclic: { name: "x", self: "[circular]" } });
    expect(log.records[0]).not.toHaveProperty("gone");
  });
});
