import { accounts, type DbOrTx, users } from "@ams/db";
import { and, eq } from "drizzle-orm";
import { PLATFORM_ADMIN_ROLE } from "./claims.ts";
import type { Identity } from "./principal.ts";

export const CREDENTIAL_PROVIDER = "credential";

export type UserRow = typeof users.$inferSelect;

export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

export function identityOf(user: UserRow, provider: Identity["provider"] = "local"): Identity {
  return {
    userId: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    emailVerified: user.emailVerified,
    platformAdmin: user.role === PLATFORM_ADMIN_ROLE,
    mustChangePassword: user.mustChangePassword,
    provider,
  };
}

/** The user and the argon2id hash of their local password, by (normalized) username. */
export async function findLocalCredential(
  db: DbOrTx,
  username: string,
): Promise<{ user: UserRow; passwordHash: string } | null> {
  const [row] = await db
    .select({ user: users, passwordHash: accounts.password })
    .from(users)
    .innerJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, CREDENTIAL_PROVIDER)))
    .where(eq(users.username, normalizeUsername(username)));
  return row?.passwordHash ? { user: row.user, passwordHash: row.passwordHash } : null;
}

export async function findUserById(db: DbOrTx, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row ?? null;
}

export async function findUserByUsername(db: DbOrTx, username: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.username, normalizeUsername(username)));
  return row ?? null;
}

export async function setLocalPassword(db: DbOrTx, userId: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .update(accounts)
    .set({ password: passwordHash, updatedAt: now })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, CREDENTIAL_PROVIDER)));
}
