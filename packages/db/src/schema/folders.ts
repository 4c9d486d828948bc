import { sql } from "drizzle-orm";
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { I18n } from "../types.ts";
import { revisionColumn } from "./revision.ts";
import { workspaces } from "./workspaces.ts";

/**
 * The exchange format's <organizations>: a tree of items. A folder row has a label and children; a leaf row
 * refers to a model concept (ref_id). `identifier` is kept when the file gave the item one.
 */
export const folders = pgTable(
  "folders",
  {
    workspaceId: uuid("workspace_id").notNull(),
    id: integer("id").notNull(),
    parentId: integer("parent_id"),
    ord: integer("ord").notNull(),
    identifier: text("identifier"),
    label: text("label"),
    documentation: text("documentation"),
    refId: text("ref_id"),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspaces.id] }).onDelete("cascade"),
    index("folders_ws_parent_idx").on(t.workspaceId, t.parentId, t.ord),
    // Deleting an element or relationship removes its folder entries (trigger ams_delete_attached_concepts).
    index("folders_ws_ref_idx").on(t.workspaceId, t.refId).where(sql`ref_id is not null`),
  ],
);
