import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { I18n } from "../types.ts";
import { revisionColumn } from "./revision.ts";
import { workspaces } from "./workspaces.ts";

export const views = pgTable(
  "views",
  {
    workspaceId: uuid("workspace_id").notNull(),
    id: text("id").notNull(),
    ord: integer("ord").notNull(),
    name: text("name").notNull().default(""),
    viewpoint: text("viewpoint"),
    documentation: text("documentation"),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspaces.id] }).onDelete("cascade"),
    index("views_ws_ord_idx").on(t.workspaceId, t.ord),
  ],
);
