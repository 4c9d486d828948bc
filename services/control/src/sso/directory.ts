import type { Database } from "@ams/db";
import type { UserDirectory } from "../auth/directory.ts";
import { normalizeUsername } from "../auth/users.ts";
import { displayName, type IdentityAdmin } from "./identity-admin.ts";
import { upsertExternalUser } from "./user-sync.ts";

/**
 * "Add member by username" with SSO: the identity provider's admin API answers whether the account exists, and
 * the account is mirrored into users (id = its subject) so the membership row and member listings resolve.
 */
export function createIdpDirectory(database: Database, admin: IdentityAdmin, clock: () => Date): UserDirectory {
  return {
    async findByUsername(username) {
      const user = await admin.findByUsername(normalizeUsername(username));
      if (!user) return null;
      const name = displayName(user);
      await upsertExternalUser(
        database.db,
        { id: user.id, username: user.username, name, email: user.email, emailVerified: user.emailVerified },
        clock(),
      );
      return { id: user.id, username: normalizeUsername(user.username), name, email: user.email };
    },
  };
}
