import { describe, expect, test } from "vitest";
import { devDefaults, parseEnv } from "../src/env.ts";

const strong = {
  NODE_ENV: "production",
  TENANT_JWT_SECRET: "t".repeat(40),
  AUTH_JWT_SECRET: "a".repeat(40),
  SEED_ADMIN_PASSWORD: "a-real-admin-password",
  PUBLIC_URL: "https://archimate.example.com",
};

describe("parseEnv", () => {
  test("development defaults", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 8080,
      DATA_DIR: "./data",
      DEMO_SEED: false,
      TRUST_PROXY_HOPS: 0,
      AUTH_JWT_SECRET: devDefaults.AUTH_JWT_SECRET,
      SEED_ADMIN_PASSWORD: devDefaults.SEED_ADMIN_PASSWORD,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.TENANT_URL).toBeUndefined();
  });

  test("parses values and fails fast with every problem listed", () => {
    expect(parseEnv({ PORT: "9000", DEMO_SEED: "true", TENANT_URL: "http://tenant:8080" })).toMatchObject({
      PORT: 9000,
      DEMO_SEED: true,
      TENANT_URL: "http://tenant:8080",
    });
    expect(() => parseEnv({ PORT: "x", AUTH_JWT_SECRET: "short", DATABASE_URL: "not a url" })).toThrow(
      /PORT[\s\S]*AUTH_JWT_SECRET must be at least 32 characters|AUTH_JWT_SECRET[\s\S]*PORT/,
    );
  });

  test("production refuses the localhost PUBLIC_URL that invitation links and SSO redirects are built from", () => {
    expect(() => parseEnv({ ...strong, PUBLIC_URL: "http://localhost:8080" })).toThrow(/PUBLIC_URL/);
  });

  test("production refuses default secrets and passwords", () => {
    expect(() => parseEnv({ NODE_ENV: "production" })).toThrow(/Refusing to start in production/);
    expect(() => parseEnv({ ...strong, AUTH_JWT_SECRET: devDefaults.AUTH_JWT_SECRET })).toThrow(/AUTH_JWT_SECRET/);
    expect(() => parseEnv({ ...strong, TENANT_JWT_SECRET: devDefaults.TENANT_JWT_SECRET })).toThrow(
      /TENANT_JWT_SECRET/,
    );
    expect(() => parseEnv({ ...strong, SEED_ADMIN_PASSWORD: undefined })).toThrow(/SEED_ADMIN_PASSWORD/);
    expect(() => parseEnv({ ...strong, AUTH_JWT_SECRET: strong.TENANT_JWT_SECRET })).toThrow(/must differ/);
    expect(() => parseEnv({ ...strong, DEMO_SEED: "true" })).toThrow(/SEED_USER_PASSWORD[\s\S]*SEED_OPEN_PASSWORD/);
    expect(parseEnv(strong).NODE_ENV).toBe("production");
    expect(
      parseEnv({
        ...strong,
        DEMO_SEED: "true",
        SEED_USER_PASSWORD: "u-real-password",
        SEED_CONTRIB_PASSWORD: "c-real-password",
        SEED_ARCHI_PASSWORD: "a-real-password",
        SEED_OPEN_PASSWORD: "o-real-password",
      }).DEMO_SEED,
    ).toBe(true);
  });

  test("development tolerates the defaults", () => {
    expect(() => parseEnv({ NODE_ENV: "development", DEMO_SEED: "true" })).not.toThrow();
  });
});
