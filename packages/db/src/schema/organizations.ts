import { boolean, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  isPersonal: boolean("is_personal").notNull().default(false),
  enabled: boolean("enabled").notNull().default(true),
  /** Members must use two-factor: a browser session of a member without it gets 403 TWO_FACTOR_REQUIRED here. */
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
