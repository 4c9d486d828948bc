import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * One-time links that set a local account's password ("forgot password"; purpose `reset`). Only the SHA-256 of the
 * clear token is stored: the clear token exists in the e-mailed link alone. A link is used at most once (used_at is
 * claimed by a compare-and-swap) and only before expires_at. The session profile's links are better-auth's own
 * (the verifications table).
 */
export const passwordResetTokens = pgTable(
  "password_reset_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose").notNull().default("reset"),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);
