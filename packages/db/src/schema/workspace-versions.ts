import { bigint, boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * A named revision of a workspace (a version): it copies nothing, the change log reconstructs the state at
 * `revision` (packages/model/src/history). Automatic versions are made before an import replaces the model and
 * before a restore. Kept until deleted, whatever the history retention.
 */
export const workspaceVersions = pgTable(
  "workspace_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    revision: bigint("revision", { mode: "number" }).notNull(),
    name: text("name").notNull(),
    description: text("description"),
    automatic: boolean("automatic").notNull().default(false),
    createdBy: text("created_by"),
    createdByName: text("created_by_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("workspace_versions_ws_rev_idx").on(t.workspaceId, t.revision)],
);
