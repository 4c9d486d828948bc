import {
  accounts,
  apiTokens,
  type DbOrTx,
  memberships,
  organizations,
  passwordResetTokens,
  sessions,
  users,
} from "@ams/db";
import { AppError } from "@ams/shared";
import { and, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { hashPassword } from "../auth/passwords.ts";
import { revokeAllSessions } from "../auth/refresh-tokens.ts";
import { randomSecret } from "../auth/secrets.ts";
import { CREDENTIAL_PROVIDER, type UserRow } from "../auth/users.ts";

/** The user's row, locked for the rest of the transaction; 404 when there is none. */
export async function lockUser(tx: DbOrTx, id: string): Promise<UserRow> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for("update");
  if (!row) throw new AppError("NOT_FOUND", "User not found");
  return row;
}

/** 409 when another account already has this username or e-mail address (each compared lower-case). */
export async function refuseTaken(
  tx: DbOrTx,
  taken: { username?: string; email?: string },
  exceptId: string | null,
): Promise<void> {
  const checks = [
    ...(taken.username ? [eq(users.username, taken.username)] : []),
    ...(taken.email ? [eq(users.email, taken.email)] : []),
  ];
  if (checks.length === 0) return;
  const rows = await tx
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(and(or(...checks), exceptId ? ne(users.id, exceptId) : undefined));
  if (rows.some((r) => r.username === taken.username)) {
    throw new AppError("CONFLICT", `The username '${taken.username}' is taken`);
  }
  if (rows.length > 0) throw new AppError("CONFLICT", `Another account uses the address ${taken.email}`);
}

/**
 * Ends every way the user is signed in: refresh tokens and every access token issued so far (local profile),
 * better-auth sessions (session profile). With `apiTokens`, their personal API tokens are revoked too.
 */
export async function endEverySession(
  tx: DbOrTx,
  userId: string,
  now: Date,
  opts: { apiTokens: boolean },
): Promise<void> {
  await revokeAllSessions(tx, userId, now);
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  if (opts.apiTokens) {
    await tx
      .update(apiTokens)
      .set({ revokedAt: now })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  }
}

/**
 * Replaces the password with one nobody knows (the user chooses a new one from a link) and retires the user's
 * earlier unused links. 409 for an account without a password here (it signs in through the identity provider).
 */
export async function scramblePassword(tx: DbOrTx, userId: string, now: Date): Promise<void> {
  const changed = await tx
    .update(accounts)
    .set({ password: await hashPassword(randomSecret(32)), updatedAt: now })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, CREDENTIAL_PROVIDER)))
    .returning({ id: accounts.id });
  if (changed.length === 0) {
    throw new AppError("CONFLICT", "This account has no password here: it signs in through the identity provider");
  }
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}

/**
 * The organizations the user is the only owner of, with their rows locked (so no concurrent change makes another
 * one ownerless meanwhile). Deleting the user is refused while there is one.
 */
export async function organizationsOnlyOwnedBy(tx: DbOrTx, userId: string): Promise<{ id: string; name: string }[]> {
  const owned = await tx
    .select({ id: memberships.organizationId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.role, "owner")));
  if (owned.length === 0) return [];
  const ids = owned.map((o) => o.id);
  await tx.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, ids)).for("update");
  return tx
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(
      and(
        inArray(organizations.id, ids),
        sql`(select count(*) from memberships m where m.organization_id = ${organizations.id} and m.role = 'owner') = 1`,
      ),
    )
    .orderBy(organizations.name);
}
