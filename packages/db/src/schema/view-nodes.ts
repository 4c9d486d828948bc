import { sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { I18n, NodeStyle } from "../types.ts";
import { elements } from "./elements.ts";
import { revisionColumn } from "./revision.ts";
import { views } from "./views.ts";

/**
 * A node of a view: kind "element" (shows element_id), "label" (free text) or "container" (a labelled group box).
 * Nesting through parent_id; deleting a node removes its children (cascade).
 */
export const viewNodes = pgTable(
  "view_nodes",
  {
    workspaceId: uuid("workspace_id").notNull(),
    id: text("id").notNull(),
    viewId: text("view_id").notNull(),
    parentId: text("parent_id"),
    ord: integer("ord").notNull(),
    kind: text("kind").notNull(),
    elementId: text("element_id"),
    x: integer("x").notNull().default(0),
    y: integer("y").notNull().default(0),
    w: integer("w").notNull().default(120),
    h: integer("h").notNull().default(55),
    label: text("label"),
    documentation: text("documentation"),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
    style: jsonb("style").$type<NodeStyle>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({ columns: [t.workspaceId, t.viewId], foreignColumns: [views.workspaceId, views.id] }).onDelete(
      "cascade",
    ),
    foreignKey({
      columns: [t.workspaceId, t.parentId],
      foreignColumns: [t.workspaceId, t.id] as [AnyPgColumn, AnyPgColumn],
    }).onDelete("cascade"),
    foreignKey({ columns: [t.workspaceId, t.elementId], foreignColumns: [elements.workspaceId, elements.id] }).onDelete(
      "cascade",
    ),
    index("view_nodes_ws_view_idx").on(t.workspaceId, t.viewId, t.ord),
    index("view_nodes_ws_element_idx").on(t.workspaceId, t.elementId),
    // The parent foreign key's cascade looks children up by parent: without it, deleting a view's nodes (a node,
    // a view, an import replacing the model) scans the workspace's nodes once per deleted node.
    index("view_nodes_ws_parent_idx").on(t.workspaceId, t.parentId).where(sql`parent_id is not null`),
  ],
);
