import { randomUUID } from "node:crypto";
import { accounts, type DbOrTx, users } from "@ams/db";
import { PLATFORM_ADMIN_ROLE } from "./claims.ts";
import { hashPassword } from "./passwords.ts";
import { CREDENTIAL_PROVIDER, normalizeUsername, type UserRow } from "./users.ts";

export type NewLocalUser = {
  username: string;
  password: string;
  name?: string;
  email: string;
  emailVerified?: boolean;
  platformAdmin?: boolean;
  mustChangePassword?: boolean;
};

/** Creates a local account: the user row and its credential (argon2id hash). */
export async function createLocalUser(db: DbOrTx, input: NewLocalUser): Promise<UserRow> {
  const id = randomUUID();
  const username = normalizeUsername(input.username);
  const [user] = await db
    .insert(users)
    .values({
      id,
      username,
      displayUsername: input.username.trim(),
      name: input.name ?? input.username.trim(),
      email: input.email.trim().toLowerCase(),
      emailVerified: input.emailVerified ?? false,
      role: input.platformAdmin ? PLATFORM_ADMIN_ROLE : "user",
      mustChangePassword: input.mustChangePassword ?? false,
    })
    .returning();
  await db.insert(accounts).values({
    id: randomUUID(),
    userId: id,
    providerId: CREDENTIAL_PROVIDER,
    accountId: id,
    password: await hashPassword(input.password),
  });
  if (!user) throw new Error(`the account '${username}' was not created`);
  return user;
}
