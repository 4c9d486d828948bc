import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { Bendpoint, ConnectionStyle, I18n } from "../types.ts";
import { relationships } from "./relationships.ts";
import { revisionColumn } from "./revision.ts";
import { views } from "./views.ts";

/**
 * A connection of a view: kind "relationship" (draws relationship_id) or "line" (a plain line).
 * source_id/target_id name a node or another connection of the same view; the model layer removes
 * connections left dangling when a node goes.
 */
export const connections = pgTable(
  "connections",
  {
    workspaceId: uuid("workspace_id").notNull(),
    id: text("id").notNull(),
    viewId: text("view_id").notNull(),
    ord: integer("ord").notNull(),
    kind: text("kind").notNull(),
    relationshipId: text("relationship_id"),
    sourceId: text("source_id").notNull(),
    targetId: text("target_id").notNull(),
    bendpoints: jsonb("bendpoints").$type<Bendpoint[]>(),
    label: text("label"),
    documentation: text("documentation"),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
    style: jsonb("style").$type<ConnectionStyle>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({ columns: [t.workspaceId, t.viewId], foreignColumns: [views.workspaceId, views.id] }).onDelete(
      "cascade",
    ),
    foreignKey({
      columns: [t.workspaceId, t.relationshipId],
      foreignColumns: [relationships.workspaceId, relationships.id],
    }).onDelete("cascade"),
    index("connections_ws_view_idx").on(t.workspaceId, t.viewId, t.ord),
    index("connections_ws_rel_idx").on(t.workspaceId, t.relationshipId),
  ],
);
