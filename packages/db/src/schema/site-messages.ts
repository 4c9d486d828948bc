import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** The site-wide messages: one row per kind ("login" shown on the sign-in page, "banner" on every page). */
export const siteMessages = pgTable("site_messages", {
  kind: text("kind").primaryKey(),
  enabled: boolean("enabled").notNull().default(false),
  text: text("text").notNull().default(""),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by"),
});
