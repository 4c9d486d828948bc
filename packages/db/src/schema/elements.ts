import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { I18n } from "../types.ts";
import { revisionColumn } from "./revision.ts";
import { workspaces } from "./workspaces.ts";

export const elements = pgTable(
  "elements",
  {
    workspaceId: uuid("workspace_id").notNull(),
    id: text("id").notNull(),
    /** Position in the model, kept so export preserves the source order. */
    ord: integer("ord").notNull(),
    type: text("type").notNull(),
    name: text("name").notNull().default(""),
    documentation: text("documentation"),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspaces.id] }).onDelete("cascade"),
    index("elements_ws_ord_idx").on(t.workspaceId, t.ord),
    // A page of one type in model order (GET /api/elements?type=&limit=): without it the page walks the workspace in
    // model order and drops the other types, reading as many rows as the type is rare.
    index("elements_ws_type_ord_idx").on(t.workspaceId, t.type, t.ord),
  ],
);
