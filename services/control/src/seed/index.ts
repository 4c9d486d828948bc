import type { Database } from "@ams/db";
import { users } from "@ams/db";
import { sql } from "drizzle-orm";
import { seedDemo, seedPlatformAdmin, seedSessionProfile } from "./accounts.ts";
import type { SeedEnv } from "./seed-env.ts";

export type { SeedEnv };

/**
 * Start-up seed. On the first start (empty users table): in the session profile, the spec's seeded accounts
 * (admin platform_admin and ArchiSurance owner, user member, contrib admin, archi owner); in the local profile, the
 * platform admin ("admin") when SEED_ADMIN_PASSWORD is set. With DEMO_SEED, on every start: the demo accounts and
 * their two isolated organizations, created only where missing (existing passwords are kept). Production requires
 * exactly the passwords of the accounts this seeds (seed-env.ts, env.ts). Serialized by a transaction-scoped
 * advisory lock so replicas starting together seed once.
 */
export async function seedAccounts(database: Database, env: SeedEnv): Promise<{ adminCreated: boolean }> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    const [row] = await tx.select({ count: sql<number>`count(*)::int` }).from(users);
    const firstStart = (row?.count ?? 0) === 0;
    let adminCreated = false;
    if (firstStart && env.AUTH_MODE === "session") {
      await seedSessionProfile(tx, env);
      adminCreated = true;
    } else if (firstStart && env.SEED_ADMIN_PASSWORD !== undefined) {
      await seedPlatformAdmin(tx, env);
      adminCreated = true;
    }
    if (env.DEMO_SEED) await seedDemo(tx, env);
    return { adminCreated };
  });
}
