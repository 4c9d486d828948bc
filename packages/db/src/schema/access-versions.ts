import { bigint, pgTable, text } from "drizzle-orm/pg-core";

/**
 * One counter per user, raised (by the triggers of migration 0022, whoever writes) in the transaction that changes
 * anything the gateway's standing of that user depends on: their memberships and roles, team memberships, selection,
 * two-factor flag, and, for every member of the organization, its suspension or two-factor rule, its teams, its
 * workspaces and their team assignments. Each control replica keeps the standings it resolved beside the counter it
 * read before resolving and reads the counter again on every request (one primary-key lookup): an unchanged counter
 * means the remembered standing is the committed one. A user without a row has counter 0.
 */
export const accessVersions = pgTable("access_versions", {
  userId: text("user_id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull(),
});
