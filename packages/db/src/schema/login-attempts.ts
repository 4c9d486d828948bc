import { bigint, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Failed (or in-flight) local sign-in attempts, one row per key ("user:<name>" and "ip:<address>"), kept in the
 * database so every control replica counts the same window.
 */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    key: text("key").notNull(),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("login_attempts_key_time_idx").on(t.key, t.attemptedAt)],
);
