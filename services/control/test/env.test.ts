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
    expect(() => parseEnv({ ...strong, SEED_ADMIN_PASSWORD: devDefaults.SEED_ADMIN_PASSWORD })).toThrow(
      /SEED_ADMIN_PASSWORD/,
    );
    expect(() => parseEnv({ ...strong, SEED_ADMIN_PASSWORD: "short-pass" })).toThrow(/at least 12 characters/);
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

  test("production without DEMO_SEED needs no seed password (the admin is then not created)", () => {
    const env = parseEnv({ ...strong, SEED_ADMIN_PASSWORD: undefined, DEMO_SEED: "false" });
    expect(env.SEED_ADMIN_PASSWORD).toBeUndefined();
    expect(() => parseEnv({ ...strong, SEED_ADMIN_PASSWORD: "", DEMO_SEED: "true" })).toThrow(
      /SEED_ADMIN_PASSWORD is required with DEMO_SEED/,
    );
  });

  test("production split shape needs the token private key (a shared secret would let tenant and mcp mint tokens)", () => {
    const split = { ...strong, TENANT_URL: "http://tenant:8081", MCP_URL: "http://mcp:8082" };
    expect(() => parseEnv(split)).toThrow(/TENANT_JWT_PRIVATE_KEY is required in the split shape/);
    const key =
      "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIKwiUW1ToIri4ZCF/FWZwTXAw7xob22mBly4Hm+Uh1cT\n-----END PRIVATE KEY-----\n";
    // With the key, TENANT_JWT_SECRET is not used and may stay unset.
    expect(parseEnv({ ...split, TENANT_JWT_SECRET: undefined, TENANT_JWT_PRIVATE_KEY: key }).TENANT_URL).toBe(
      "http://tenant:8081",
    );
  });

  test("development tolerates the defaults", () => {
    expect(() => parseEnv({ NODE_ENV: "development", DEMO_SEED: "true" })).not.toThrow();
  });
});

describe("AUTH_MODE", () => {
  test("is local by default, session when asked, and anything else stops the start naming it", () => {
    expect(parseEnv({}).AUTH_MODE).toBe("local");
    expect(parseEnv({ AUTH_MODE: "session" }).AUTH_MODE).toBe("session");
    expect(() => parseEnv({ AUTH_MODE: "cookies" })).toThrow(/AUTH_MODE/);
    expect(() => parseEnv({ TRUSTED_ORIGINS: "https://a.example, not an origin" })).toThrow(/TRUSTED_ORIGINS/);
    expect(parseEnv({ TRUSTED_ORIGINS: "https://a.example, http://b.example:8080" }).TRUSTED_ORIGINS).toEqual([
      "https://a.example",
      "http://b.example:8080",
    ]);
  });

  test("production in the session profile requires the session secret and every seed password, each named", () => {
    const session = { ...strong, AUTH_MODE: "session" };
    let message = "";
    try {
      parseEnv(session);
    } catch (err) {
      message = (err as Error).message;
    }
    for (const name of ["SESSION_SECRET", "SEED_USER_PASSWORD", "SEED_CONTRIB_PASSWORD", "SEED_ARCHI_PASSWORD"]) {
      expect(message).toContain(name);
    }
    const { SEED_ADMIN_PASSWORD: _admin, ...withoutAdmin } = session;
    expect(() => parseEnv(withoutAdmin)).toThrow(/SEED_ADMIN_PASSWORD is required with AUTH_MODE=session/);
    const complete = {
      ...session,
      SESSION_SECRET: "s".repeat(40),
      SEED_USER_PASSWORD: "a-real-user-password",
      SEED_CONTRIB_PASSWORD: "a-real-contrib-password",
      SEED_ARCHI_PASSWORD: "a-real-archi-password",
    };
    expect(parseEnv(complete).AUTH_MODE).toBe("session");
  });
});
