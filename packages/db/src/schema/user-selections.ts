import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";
import { workspaces } from "./workspaces.ts";

/** The interactive choice of active organization and workspace, one row per user. */
export const userSelections = pgTable("user_selections", {
  userId: text("user_id").primaryKey(),
  organizationId: uuid("organization_id").references(() => organizations.id, { onDelete: "set null" }),
  workspaceId: uuid("workspace_id").references(() => workspaces.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
