import { bigserial, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * What a migration changed in existing data to make it consistent (for example relationships whose source or target
 * had been deleted by a race before the endpoint triggers existed): one row per removed or altered object, so an
 * operator can see exactly what was repaired and export it before it is gone for good.
 */
export const dataRepairs = pgTable(
  "data_repairs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    migration: text("migration").notNull(),
    tableName: text("table_name").notNull(),
    workspaceId: uuid("workspace_id"),
    objectId: text("object_id").notNull(),
    reason: text("reason").notNull(),
    /** The removed row as JSON, so nothing is lost without a trace. */
    row: text("row"),
    repairedAt: timestamp("repaired_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("data_repairs_migration_idx").on(t.migration)],
);
