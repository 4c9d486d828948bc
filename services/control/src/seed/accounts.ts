import { type DbOrTx, memberships, organizations } from "@ams/db";
import { eq } from "drizzle-orm";
import { createLocalUser } from "../auth/create-user.ts";
import { findUserByUsername } from "../auth/users.ts";
import type { MemberRole } from "../organizations/schemas.ts";
import type { SeedEnv, SeedPassword } from "./seed-env.ts";

type SeedAccount = { username: string; name: string; password: SeedPassword; platformAdmin?: boolean };
type SeedOrganization = { slug: string; name: string; members: [string, MemberRole][] };

const ADMIN: SeedAccount = {
  username: "admin",
  name: "Platform Admin",
  password: "SEED_ADMIN_PASSWORD",
  platformAdmin: true,
};
const USER: SeedAccount = { username: "user", name: "Demo Viewer", password: "SEED_USER_PASSWORD" };
const CONTRIB: SeedAccount = { username: "contrib", name: "Demo Contributor", password: "SEED_CONTRIB_PASSWORD" };
const ARCHI: SeedAccount = { username: "archi", name: "Demo Architect", password: "SEED_ARCHI_PASSWORD" };
const OPEN: SeedAccount = { username: "open", name: "Open Org Owner", password: "SEED_OPEN_PASSWORD" };

/**
 * ArchiSurance's members. Local profile: admin is deliberately in none; archi owner, contrib editor, user viewer.
 * Session profile (the spec's seeded accounts): admin platform_admin and owner, archi owner, contrib admin, user
 * member.
 */
function archisurance(profile: SeedEnv["AUTH_MODE"]): SeedOrganization {
  const members: [string, MemberRole][] =
    profile === "session"
      ? [
          ["admin", "owner"],
          ["archi", "owner"],
          ["contrib", "admin"],
          ["user", "member"],
        ]
      : [
          ["archi", "owner"],
          ["contrib", "editor"],
          ["user", "viewer"],
        ];
  return { slug: "archisurance", name: "ArchiSurance", members };
}

/** The platform admin alone: the local profile's first start when SEED_ADMIN_PASSWORD is given. */
export const seedPlatformAdmin = (tx: DbOrTx, env: SeedEnv) => ensure(tx, env, [ADMIN], []);

/**
 * The session profile's seeded accounts (spec), on its first start with or without DEMO_SEED: admin, user,
 * contrib and archi with their roles in ArchiSurance.
 */
export const seedSessionProfile = (tx: DbOrTx, env: SeedEnv) =>
  ensure(tx, env, [ADMIN, USER, CONTRIB, ARCHI], [archisurance("session")]);

/** DEMO_SEED: the demo accounts and two isolated organizations (ArchiSurance as the profile has it, Open Org). */
export const seedDemo = (tx: DbOrTx, env: SeedEnv) =>
  ensure(
    tx,
    env,
    [ADMIN, USER, CONTRIB, ARCHI, OPEN],
    [archisurance(env.AUTH_MODE), { slug: "open-org", name: "Open Org", members: [["open", "owner"]] }],
  );

/**
 * Creates the accounts and organizations that are missing and the memberships that are missing; existing accounts
 * keep their passwords and existing memberships their roles. A password the configuration lacks stops the seed,
 * naming its variable (production refuses to start before this, env.ts).
 */
async function ensure(tx: DbOrTx, env: SeedEnv, accounts: SeedAccount[], orgs: SeedOrganization[]): Promise<void> {
  const ids = new Map<string, string>();
  for (const account of accounts) {
    const existing = await findUserByUsername(tx, account.username);
    if (existing) {
      ids.set(account.username, existing.id);
      continue;
    }
    const password = env[account.password];
    if (password === undefined) throw new Error(`${account.password} is required to seed '${account.username}'`);
    const user = await createLocalUser(tx, {
      username: account.username,
      name: account.name,
      email: `${account.username}@example.com`,
      emailVerified: true,
      password,
      platformAdmin: account.platformAdmin,
    });
    ids.set(account.username, user.id);
  }
  for (const org of orgs) {
    const [existing] = await tx.select().from(organizations).where(eq(organizations.slug, org.slug));
    const row = existing ?? (await tx.insert(organizations).values({ slug: org.slug, name: org.name }).returning())[0];
    if (!row) throw new Error(`the seeded organization '${org.slug}' was not created`);
    for (const [username, role] of org.members) {
      const userId = ids.get(username);
      if (!userId) throw new Error(`the seeded member '${username}' is not a seeded account`);
      await tx.insert(memberships).values({ organizationId: row.id, userId, role }).onConflictDoNothing();
    }
  }
}
