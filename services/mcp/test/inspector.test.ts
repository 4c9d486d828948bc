/**
 * The MCP Inspector's own check of our server (issue 14): its CLI, run as an integrator runs it
 * (`mcp-inspector --cli <url>/mcp/ --transport http --header "Authorization: Bearer ..." --method tools/list --strict`),
 * against the real gateway and MCP service. `--strict` lints every tool's input and output schema for portability
 * across MCP hosts and exits non-zero on any error; warnings (free-form values declared as such) are allowed.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Stack, startStack } from "./support/stack.ts";
import { ADDED_TOOLS, SPEC_TOOLS } from "./support/tool-names.ts";

const run = promisify(execFile);
const CLI = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector/package.json")),
  "clients/cli/build/index.js",
);

let stack: Stack;
let token: string;
// The Inspector keeps a catalog of servers: a throwaway folder, not the home folder of whoever runs the tests.
const catalog = mkdtempSync(join(tmpdir(), "ams-inspector-"));
beforeAll(async () => {
  stack = await startStack();
  const archi = await stack.signIn("archi");
  await archi.call("POST", "/api/workspaces", { name: "Inspected" });
  token = (await stack.apiToken(archi)).token;
});
afterAll(async () => {
  await stack?.close();
  rmSync(catalog, { recursive: true, force: true });
});

const inspector = (...args: string[]) =>
  run(
    process.execPath,
    [CLI, `${stack.base}/mcp/`, "--transport", "http", "--header", `Authorization: Bearer ${token}`, ...args],
    { env: { ...process.env, MCP_CATALOG_PATH: join(catalog, "mcp.json") }, timeout: 60_000 },
  );

describe("MCP Inspector CLI", () => {
  test("tools/list --strict: every tool listed, no schema portability error", async () => {
    const { stdout, stderr } = await inspector("--method", "tools/list", "--strict");
    const listed = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(listed.sort()).toEqual([...SPEC_TOOLS, ...ADDED_TOOLS].sort());
    expect(stderr).toMatch(/^0 errors, \d+ warnings? across \d+ tools?\.$/m);
  }, 90_000);

  test("a tool call through the Inspector answers the model summary", async () => {
    const { stdout } = await inspector("--method", "tools/call", "--tool-name", "get_model_info");
    const result = JSON.parse(stdout) as { isError?: boolean; structuredContent?: { workspace?: { name?: string } } };
    expect(result.isError ?? false).toBe(false);
    expect(JSON.stringify(result)).toContain("Inspected");
  }, 90_000);
});
