import type { Database } from "@ams/db";
import { findUserByUsername } from "./users.ts";

export type DirectoryUser = { id: string; username: string; name: string; email: string | null };

/**
 * Looks accounts up for "add member by username". The local directory reads the users table; with SSO the
 * identity provider's admin client answers instead (and the account must end up in users, id = its subject).
 */
export type UserDirectory = { findByUsername(username: string): Promise<DirectoryUser | null> };

export function createLocalDirectory(database: Database): UserDirectory {
  return {
    async findByUsername(username) {
      const user = await findUserByUsername(database.db, username);
      return user ? { id: user.id, username: user.username, name: user.name, email: user.email } : null;
    },
  };
}
