import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users.ts";

/**
 * TOTP codes already used, per user, until they can no longer be valid: a code presented twice within its window
 * is refused (RFC 6238 §5.2), in both profiles. The primary key makes two concurrent uses of one code a conflict.
 */
export const totpCodeClaims = pgTable(
  "totp_code_claims",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);
