import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import type { I18n } from "../types.ts";
import { propertyDefinitions } from "./property-definitions.ts";
import { revisionColumn } from "./revision.ts";

/** owner_kind: model | element | relationship | view; owner_id is empty for the model itself. */
export const propertyValues = pgTable(
  "property_values",
  {
    workspaceId: uuid("workspace_id").notNull(),
    ownerKind: text("owner_kind").notNull(),
    ownerId: text("owner_id").notNull(),
    ord: integer("ord").notNull(),
    definitionId: text("definition_id").notNull(),
    value: text("value").notNull().default(""),
    revision: revisionColumn(),
    i18n: jsonb("i18n").$type<I18n>(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.ownerKind, t.ownerId, t.ord] }),
    foreignKey({
      columns: [t.workspaceId, t.definitionId],
      foreignColumns: [propertyDefinitions.workspaceId, propertyDefinitions.id],
    }).onDelete("cascade"),
    index("property_values_ws_def_idx").on(t.workspaceId, t.definitionId),
  ],
);
