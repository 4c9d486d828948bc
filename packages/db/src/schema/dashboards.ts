import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/**
 * A dashboard of an organization, or a provisioned one (organization_id null, loaded from files at start-up and
 * shown to every organization). Its definitions are revisions; deleted_at marks a soft delete.
 */
export const dashboards = pgTable(
  "dashboards",
  {
    id: text("id").primaryKey(),
    organizationId: uuid("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    isProvisioned: boolean("is_provisioned").notNull().default(false),
    latestRevision: integer("latest_revision").notNull().default(1),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [index("dashboards_org_idx").on(t.organizationId)],
);

/** Every revision of a dashboard's definition (the first is 1); the JSON follows DashboardDefinition. */
export const dashboardRevisions = pgTable(
  "dashboard_revisions",
  {
    dashboardId: text("dashboard_id").notNull(),
    revision: integer("revision").notNull(),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.dashboardId, t.revision] }),
    foreignKey({ columns: [t.dashboardId], foreignColumns: [dashboards.id] }).onDelete("cascade"),
  ],
);
