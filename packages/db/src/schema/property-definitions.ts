import { boolean, foreignKey, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { I18n } from "../types.ts";
import { revisionColumn } from "./revision.ts";
import { workspaces } from "./workspaces.ts";

/** type: string | boolean | date | number | enumeration (the exchange format's DataType). */
export const propertyDefinitions = pgTable(
  "property_definitions",
  {
    workspaceId: uuid("workspace_id").notNull(),
    id: text("id").notNull(),
    ord: integer("ord").notNull(),
    name: text("name").notNull(),
    type: text("type").notNull().default("string"),
    isSystem: boolean("is_system").notNull().default(false),
    /** The values an enumeration allows, in order; null for the other types (and an enumeration left open). */
    allowedValues: text("allowed_values").array(),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.id] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspaces.id] }).onDelete("cascade"),
  ],
);
