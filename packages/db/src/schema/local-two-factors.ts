import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * A local account's TOTP (RFC 6238) secret, AES-256-GCM encrypted with a key derived from AUTH_JWT_SECRET (it must
 * be read back, so it cannot be hashed). Without confirmed_at the enrolment waits for its first code; with it the
 * account signs in with two steps (users.two_factor_enabled).
 */
export const localTwoFactors = pgTable("local_two_factors", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretCiphertext: text("secret_ciphertext").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
