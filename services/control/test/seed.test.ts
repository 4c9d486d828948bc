import { accounts, memberships, organizations, users } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { verifyPassword } from "../src/auth/passwords.ts";
import { parseEnv } from "../src/env.ts";
import { seedAccounts } from "../src/seed/index.ts";

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

async function membershipsOf(db: TestDatabase["db"], slug: string) {
  return db
    .select({ username: users.username, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(organizations.slug, slug));
}

describe("seedAccounts", () => {
  test("creates the platform admin only when the users table is empty", async () => {
    database = await createTestDatabase("ams_control_seed");
    const env = parseEnv({ SEED_ADMIN_PASSWORD: "first-admin-password" });
    expect(await seedAccounts(database, env)).toEqual({ adminCreated: true });
    expect(await seedAccounts(database, env)).toEqual({ adminCreated: false });
    const rows = await database.db.select().from(users);
    expect(rows.map((u) => [u.username, u.role])).toEqual([["admin", "platform_admin"]]);
    expect(await database.db.select().from(organizations)).toEqual([]);
  });

  test("production without SEED_ADMIN_PASSWORD starts and creates no account", async () => {
    database = await createTestDatabase("ams_control_seed");
    const env = parseEnv({
      NODE_ENV: "production",
      TENANT_JWT_SECRET: "t".repeat(40),
      AUTH_JWT_SECRET: "a".repeat(40),
      PUBLIC_URL: "https://archimate.example.com",
    });
    expect(await seedAccounts(database, env)).toEqual({ adminCreated: false });
    expect(await database.db.select().from(users)).toEqual([]);
  });

  test("DEMO_SEED: demo accounts and the two isolated organizations, admin in neither; idempotent", async () => {
    database = await createTestDatabase("ams_control_seed");
    const env = parseEnv({ DEMO_SEED: "true" });
    await Promise.all([seedAccounts(database, env), seedAccounts(database, env)]);
    await seedAccounts(database, env);
    const names = (await database.db.select().from(users)).map((u) => u.username).sort();
    expect(names).toEqual(["admin", "archi", "contrib", "open", "user"]);
    const sorted = (rows: { username: string; role: string }[]) => rows.map((r) => `${r.username}:${r.role}`).sort();
    expect(sorted(await membershipsOf(database.db, "archisurance"))).toEqual([
      "archi:owner",
      "contrib:editor",
      "user:viewer",
    ]);
    expect(sorted(await membershipsOf(database.db, "open-org"))).toEqual(["open:owner"]);
    const orgs = await database.db.select().from(organizations);
    expect(orgs.map((o) => o.name).sort()).toEqual(["ArchiSurance", "Open Org"]);
  });
});

const sorted = (rows: { username: string; role: string }[]) => rows.map((r) => `${r.username}:${r.role}`).sort();

/** A production configuration with every secret real; the seed passwords are what each test adds. */
const production = {
  NODE_ENV: "production",
  TENANT_JWT_SECRET: "t".repeat(40),
  AUTH_JWT_SECRET: "a".repeat(40),
  SESSION_SECRET: "s".repeat(40),
  PUBLIC_URL: "https://archimate.example.com",
};
const sessionPasswords = {
  SEED_ADMIN_PASSWORD: "real-admin-password",
  SEED_USER_PASSWORD: "real-user-password",
  SEED_CONTRIB_PASSWORD: "real-contrib-password",
  SEED_ARCHI_PASSWORD: "real-archi-password",
};

async function passwordOf(db: TestDatabase["db"], username: string): Promise<string> {
  const [row] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(eq(users.username, username));
  return row?.hash ?? "";
}

describe("seedAccounts in the session profile (spec: admin platform_admin and owner, user member, contrib admin, archi owner)", () => {
  test("first start without DEMO_SEED (production): the four accounts with their roles and passwords; no demo", async () => {
    database = await createTestDatabase("ams_control_seed");
    const env = parseEnv({ ...production, AUTH_MODE: "session", ...sessionPasswords });
    expect(await seedAccounts(database, env)).toEqual({ adminCreated: true });
    const rows = await database.db.select({ username: users.username, role: users.role }).from(users);
    expect(rows.map((u) => `${u.username}:${u.role}`).sort()).toEqual([
      "admin:platform_admin",
      "archi:user",
      "contrib:user",
      "user:user",
    ]);
    expect(sorted(await membershipsOf(database.db, "archisurance"))).toEqual([
      "admin:owner",
      "archi:owner",
      "contrib:admin",
      "user:member",
    ]);
    expect((await database.db.select().from(organizations)).map((o) => o.slug)).toEqual(["archisurance"]);
    for (const [username, password] of [
      ["admin", sessionPasswords.SEED_ADMIN_PASSWORD],
      ["user", sessionPasswords.SEED_USER_PASSWORD],
      ["contrib", sessionPasswords.SEED_CONTRIB_PASSWORD],
      ["archi", sessionPasswords.SEED_ARCHI_PASSWORD],
    ] as const) {
      expect(await verifyPassword(await passwordOf(database.db, username), password), username).toBe(true);
    }
    // A later start seeds nothing again (an account removed by the operator stays removed).
    await database.db.delete(users).where(eq(users.username, "user"));
    expect(await seedAccounts(database, env)).toEqual({ adminCreated: false });
    expect((await database.db.select().from(users)).map((u) => u.username).sort()).toEqual([
      "admin",
      "archi",
      "contrib",
    ]);
  });

  test("an existing database (users present) is not seeded", async () => {
    database = await createTestDatabase("ams_control_seed");
    const local = parseEnv({ SEED_ADMIN_PASSWORD: "first-admin-password" });
    await seedAccounts(database, local);
    const env = parseEnv({ ...production, AUTH_MODE: "session", ...sessionPasswords });
    expect(await seedAccounts(database, env)).toEqual({ adminCreated: false });
    expect((await database.db.select().from(users)).map((u) => u.username)).toEqual(["admin"]);
    expect(await database.db.select().from(organizations)).toEqual([]);
  });

  test("with DEMO_SEED: the same roles plus the isolated Open Org; idempotent", async () => {
    database = await createTestDatabase("ams_control_seed");
    const env = parseEnv({ AUTH_MODE: "session", DEMO_SEED: "true" });
    await Promise.all([seedAccounts(database, env), seedAccounts(database, env)]);
    await seedAccounts(database, env);
    const rows = await database.db.select({ username: users.username, role: users.role }).from(users);
    expect(rows.map((u) => `${u.username}:${u.role}`).sort()).toEqual([
      "admin:platform_admin",
      "archi:user",
      "contrib:user",
      "open:user",
      "user:user",
    ]);
    expect(sorted(await membershipsOf(database.db, "archisurance"))).toEqual([
      "admin:owner",
      "archi:owner",
      "contrib:admin",
      "user:member",
    ]);
    expect(sorted(await membershipsOf(database.db, "open-org"))).toEqual(["open:owner"]);
  });
});

describe("production requires exactly the seed passwords of the accounts it will seed", () => {
  const refusal = (source: Record<string, string>) => {
    try {
      parseEnv(source);
      return "";
    } catch (err) {
      return (err as Error).message;
    }
  };

  test("local profile without DEMO_SEED: none (the admin only when given); nothing but the admin is seeded", async () => {
    const env = parseEnv(production);
    expect([
      env.SEED_USER_PASSWORD,
      env.SEED_CONTRIB_PASSWORD,
      env.SEED_ARCHI_PASSWORD,
      env.SEED_OPEN_PASSWORD,
    ]).toEqual([undefined, undefined, undefined, undefined]);
    database = await createTestDatabase("ams_control_seed");
    const withAdmin = parseEnv({ ...production, SEED_ADMIN_PASSWORD: "real-admin-password" });
    await seedAccounts(database, withAdmin);
    expect((await database.db.select().from(users)).map((u) => u.username)).toEqual(["admin"]);
  });

  test("session profile: admin, user, contrib and archi, each named; not open", () => {
    const message = refusal({ ...production, AUTH_MODE: "session" });
    for (const name of ["SEED_ADMIN_PASSWORD", "SEED_USER_PASSWORD", "SEED_CONTRIB_PASSWORD", "SEED_ARCHI_PASSWORD"]) {
      expect(message).toContain(`${name} is required with AUTH_MODE=session`);
    }
    expect(message).not.toContain("SEED_OPEN_PASSWORD");
    expect(refusal({ ...production, AUTH_MODE: "session", ...sessionPasswords })).toBe("");
    expect(
      refusal({ ...production, AUTH_MODE: "session", ...sessionPasswords, SEED_USER_PASSWORD: "user-dev-password" }),
    ).toContain("SEED_USER_PASSWORD is the development default");
  });

  test("DEMO_SEED: every demo account's password, open's included", () => {
    const message = refusal({ ...production, DEMO_SEED: "true" });
    for (const name of [
      "SEED_ADMIN_PASSWORD",
      "SEED_USER_PASSWORD",
      "SEED_CONTRIB_PASSWORD",
      "SEED_ARCHI_PASSWORD",
      "SEED_OPEN_PASSWORD",
    ]) {
      expect(message).toContain(`${name} is required with DEMO_SEED`);
    }
    expect(refusal({ ...production, AUTH_MODE: "session", ...sessionPasswords, DEMO_SEED: "true" })).toContain(
      "SEED_OPEN_PASSWORD is required with DEMO_SEED",
    );
  });
});
