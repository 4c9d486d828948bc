import { boolean, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  isPersonal: boolean("is_personal").notNull().default(false),
  enabled: boolean("enabled").notNull().default(true),
  /** Members must use two-factor: a browser session of a member without it gets 403 TWO_FACTOR_REQUIRED here. */
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  /** A draft needs this many approvals from owners/editors other than its author before it merges. */
  draftApprovalsRequired: integer("draft_approvals_required").notNull().default(0),
  /** MCP sessions of assistants (OAuth clients, API tokens marked as an assistant's) write into drafts, never a base. */
  assistantsWriteToDrafts: boolean("assistants_write_to_drafts").notNull().default(false),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
