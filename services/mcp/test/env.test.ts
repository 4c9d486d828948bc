import { expect, test } from "vitest";
import { parseEnv } from "../src/env.ts";

test("the service alone needs DATABASE_URL and the token key (public key, or a secret of 32+ characters), and says which is missing", () => {
  expect(() => parseEnv({})).toThrow(/DATABASE_URL/);
  expect(() => parseEnv({ DATABASE_URL: "postgres://db/ams" })).toThrow(
    /TENANT_JWT_PUBLIC_KEY .*or TENANT_JWT_SECRET .*is required/,
  );
  expect(() => parseEnv({ DATABASE_URL: "postgres://db/ams", TENANT_JWT_SECRET: "short" })).toThrow(/at least 32/);
  const env = parseEnv({ DATABASE_URL: "postgres://db/ams", TENANT_JWT_SECRET: "s".repeat(32), MCP_PORT: "9000" });
  expect(env).toMatchObject({ MCP_PORT: 9000, MCP_BODY_LIMIT: 50 * 1024 * 1024 });
  expect(
    parseEnv({ DATABASE_URL: "postgres://db/ams", TENANT_JWT_PUBLIC_KEY: "-----BEGIN PUBLIC KEY-----" }),
  ).toMatchObject({
    MCP_PORT: 8082,
  });
});
