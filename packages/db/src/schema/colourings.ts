import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * Saved colourings of a workspace ("Criticality RAG"): a heatmap's property or metric and palette under a name, so
 * everyone colouring a view by it sees the same colours. Settings of the workspace, not model content: no change log.
 */
export const colourings = pgTable(
  "colourings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    colorBy: text("color_by").notNull(),
    palette: text("palette"),
    createdBy: text("created_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("colourings_ws_idx").on(t.workspaceId)],
);
