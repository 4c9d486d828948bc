import { memberships, organizations, users } from "@ams/db";
import { createTestDatabase, type TestDatabase } from "@ams/db/testing";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
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
