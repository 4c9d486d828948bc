import type { Database } from "@ams/db";
import { users } from "@ams/db";
import { sql } from "drizzle-orm";
import { createLocalUser } from "../auth/create-user.ts";
import { seedDemo } from "./demo.ts";
import type { SeedEnv } from "./seed-env.ts";

export type { SeedEnv };

/**
 * Start-up seed. When the users table is empty and SEED_ADMIN_PASSWORD is set: the platform admin (username "admin"). With DEMO_SEED: the demo
 * accounts and their two isolated organizations, created only where missing (existing passwords are kept).
 * Serialized by a transaction-scoped advisory lock so replicas starting together seed once.
 */
export async function seedAccounts(database: Database, env: SeedEnv): Promise<{ adminCreated: boolean }> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const [row] = await tx.select({ count: sql<number>`count(*)::int` }).from(users);
    const count = row?.count ?? 0;
    let adminCreated = false;
    if (count === 0 && env.SEED_ADMIN_PASSWORD !== undefined) {
      await createLocalUser(tx, {
        username: "admin",
        name: "Platform Admin",
        email: "admin@example.com",
        emailVerified: true,
        password: env.SEED_ADMIN_PASSWORD,
        platformAdmin: true,
      });
      adminCreated = true;
    }
    if (env.DEMO_SEED) await seedDemo(tx, env);
    return { adminCreated };
  });
}
