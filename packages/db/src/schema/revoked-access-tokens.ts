import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Access JWTs ended by sign-out before their expiry: SHA-256 of the token (never the token), kept until the token
 * would have expired anyway. Every control replica consults it, so a sign-out takes effect everywhere.
 */
export const revokedAccessTokens = pgTable(
  "revoked_access_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("revoked_access_tokens_expires_idx").on(t.expiresAt)],
);
