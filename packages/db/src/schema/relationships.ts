import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { I18n } from "../types.ts";
import { revisionColumn } from "./revision.ts";
import { workspaces } from "./workspaces.ts";

/** source_id/target_id name an element or another relationship of the same workspace. */
export const relationships = pgTable(
  "relationships",
  {
    workspaceId: uuid("workspace_id").notNull(),
    id: text("id").notNull(),
    ord: integer("ord").notNull(),
    type: text("type").notNull(),
    sourceId: text("source_id").notNull(),
    targetId: text("target_id").notNull(),
    name: text("name"),
    documentation: text("documentation"),
    isDirected: boolean("is_directed"),
    accessType: text("access_type"),
    influenceStrength: text("influence_strength"),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspaces.id] }).onDelete("cascade"),
    index("relationships_ws_ord_idx").on(t.workspaceId, t.ord),
    index("relationships_ws_source_idx").on(t.workspaceId, t.sourceId),
    index("relationships_ws_target_idx").on(t.workspaceId, t.targetId),
  ],
);
