import { type DbOrTx, memberships, organizations } from "@ams/db";
import { eq } from "drizzle-orm";
import { createLocalUser } from "../auth/create-user.ts";
import { findUserByUsername } from "../auth/users.ts";
import type { MemberRole } from "../organizations/schemas.ts";
import type { SeedEnv } from "./seed-env.ts";

type DemoAccount = { username: string; name: string; password: keyof SeedEnv; platformAdmin?: boolean };

const accounts: DemoAccount[] = [
  { username: "admin", name: "Platform Admin", password: "SEED_ADMIN_PASSWORD", platformAdmin: true },
  { username: "user", name: "Demo Viewer", password: "SEED_USER_PASSWORD" },
  { username: "contrib", name: "Demo Contributor", password: "SEED_CONTRIB_PASSWORD" },
  { username: "archi", name: "Demo Architect", password: "SEED_ARCHI_PASSWORD" },
  { username: "open", name: "Open Org Owner", password: "SEED_OPEN_PASSWORD" },
];

type DemoOrganization = { slug: string; name: string; members: [string, MemberRole][] };

/**
 * Two isolated organizations. Local profile: admin is deliberately in neither; archi owner, contrib editor, user
 * viewer. Session profile (the spec's list): admin is platform_admin and owner, archi owner, contrib admin, user
 * member.
 */
function demoOrganizations(profile: SeedEnv["AUTH_MODE"]): DemoOrganization[] {
  const archisurance: [string, MemberRole][] =
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
  return [
    { slug: "archisurance", name: "ArchiSurance", members: archisurance },
    { slug: "open-org", name: "Open Org", members: [["open", "owner"]] },
  ];
}

export async function seedDemo(tx: DbOrTx, env: SeedEnv): Promise<void> {
  const ids = new Map<string, string>();
  for (const account of accounts) {
    const existing = await findUserByUsername(tx, account.username);
    const user =
      existing ??
      (await createLocalUser(tx, {
        username: account.username,
        name: account.name,
        email: `${account.username}@example.com`,
        emailVerified: true,
        password: String(env[account.password]),
        platformAdmin: account.platformAdmin,
      }));
    ids.set(account.username, user.id);
  }
  for (const org of demoOrganizations(env.AUTH_MODE)) {
    const [existing] = await tx.select().from(organizations).where(eq(organizations.slug, org.slug));
    const row = existing ?? (await tx.insert(organizations).values({ slug: org.slug, name: org.name }).returning())[0];
    if (!row) throw new Error(`the demo organization '${org.slug}' was not created`);
    for (const [username, role] of org.members) {
      const userId = ids.get(username);
      if (!userId) throw new Error(`the demo member '${username}' is not a demo account`);
      await tx.insert(memberships).values({ organizationId: row.id, userId, role }).onConflictDoNothing();
    }
  }
}
