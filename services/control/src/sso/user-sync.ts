import { randomUUID } from "node:crypto";
import { accounts, type Db, users } from "@ams/db";
import { sql } from "drizzle-orm";
import { PLATFORM_ADMIN_ROLE } from "../auth/claims.ts";
import { sha256Hex } from "../auth/secrets.ts";
import { normalizeUsername } from "../auth/users.ts";
import { isUniqueViolation } from "../http/db-errors.ts";

export const OIDC_PROVIDER_ID = "oidc";

/** An identity of the provider, as our users table mirrors it (id = the provider's subject). */
export type ExternalUser = {
  id: string;
  username: string;
  name: string;
  email: string | null;
  emailVerified: boolean;
  /** Known from a token's realm roles; undefined (an admin lookup) keeps what the row has. */
  platformAdmin?: boolean;
};

/**
 * Makes sure the provider's identity has its row in users (memberships, API tokens and listings need it), keyed
 * by the subject, never by username or e-mail: a provider account that shares a username or address with a local
 * account is NOT merged into it (that would hand the local account over). Such a clash gets a disambiguated
 * username and a placeholder address instead; the gateway reads the e-mail from the token, not from this row.
 * Not for use inside a transaction: the clash is detected by a failing statement and retried.
 */
export async function upsertExternalUser(db: Db, user: ExternalUser, now: Date): Promise<void> {
  const preferred = {
    username: normalizeUsername(user.username),
    email: user.email?.trim().toLowerCase() || placeholderEmail(user.id),
  };
  try {
    await write(db, user, preferred, now);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const tag = sha256Hex(user.id).slice(0, 8);
    await write(db, user, { username: `${preferred.username}~${tag}`, email: placeholderEmail(user.id) }, now);
  }
  await db
    .insert(accounts)
    .values({ id: randomUUID(), userId: user.id, providerId: OIDC_PROVIDER_ID, accountId: user.id })
    .onConflictDoNothing();
}

async function write(db: Db, user: ExternalUser, names: { username: string; email: string }, now: Date): Promise<void> {
  const role = user.platformAdmin ? PLATFORM_ADMIN_ROLE : "user";
  await db
    .insert(users)
    .values({
      id: user.id,
      username: names.username,
      displayUsername: user.username,
      name: user.name || user.username,
      email: names.email,
      emailVerified: user.emailVerified,
      role,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: users.id,
      set: {
        username: names.username,
        displayUsername: user.username,
        name: user.name || user.username,
        email: names.email,
        emailVerified: user.emailVerified,
        role: user.platformAdmin === undefined ? sql`${users.role}` : role,
        updatedAt: now,
      },
    });
}

function placeholderEmail(subject: string): string {
  return `oidc-${sha256Hex(subject).slice(0, 16)}@users.invalid`;
}
