import { expect, test } from "vitest";
import { parseEnv } from "../src/env.ts";

test("the service alone needs DATABASE_URL and a TENANT_JWT_SECRET of 32+ characters, and says which is missing", () => {
  expect(() => parseEnv({})).toThrow(/DATABASE_URL[\s\S]*TENANT_JWT_SECRET|TENANT_JWT_SECRET[\s\S]*DATABASE_URL/);
  expect(() => parseEnv({ DATABASE_URL: "postgres://db/ams", TENANT_JWT_SECRET: "short" })).toThrow(/at least 32/);
  const env = parseEnv({ DATABASE_URL: "postgres://db/ams", TENANT_JWT_SECRET: "s".repeat(32), MCP_PORT: "9000" });
  expect(env).toMatchObject({ MCP_PORT: 9000, MCP_BODY_LIMIT: 50 * 1024 * 1024 });
});
