import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Access JWTs ended by sign-out before their expiry, by their unique id (the `jti` claim, never the token), kept
 * until the token would have expired anyway. Every control replica consults it, and an insert is announced on the
 * `access_changes` channel (trigger revoked_access_tokens_announce), so a sign-out takes effect everywhere at once.
 */
export const revokedAccessTokens = pgTable(
  "revoked_access_tokens",
  {
    jti: text("jti").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("revoked_access_tokens_expires_idx").on(t.expiresAt)],
);
