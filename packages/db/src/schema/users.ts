import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Identities, shaped like better-auth's `user` model (plus its username and admin plugin fields) so its drizzle
 * adapter can use this table as is (`user: { modelName: "users" }`). `role` is "platform_admin" for the Admin
 * realm role, otherwise "user". Usernames and e-mails are stored lower-case.
 */
export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  username: text("username").notNull().unique(),
  displayUsername: text("display_username"),
  role: text("role").notNull().default("user"),
  mustChangePassword: boolean("must_change_password").notNull().default(false),
  /** Signs in with a second step (TOTP or a recovery code); better-auth's two-factor plugin field, both profiles. */
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
  /** better-auth admin plugin: a banned user cannot sign in in the session profile. */
  banned: boolean("banned").notNull().default(false),
  banReason: text("ban_reason"),
  banExpires: timestamp("ban_expires", { withTimezone: true }),
  /**
   * Local access tokens issued before this instant (microseconds, as their iat_us claim) are refused by every control replica:
   * set when every session of the user ends (password change or reset, a reused refresh token). A change of it,
   * of role or of banned is announced on the `access_changes` channel (trigger users_access_change), so replicas
   * forget what they remembered of the user at once.
   */
  tokensValidAfter: timestamp("tokens_valid_after", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
