import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/**
 * An organization's own validation rule, applied with the built-in rules to every workspace of the organization
 * (POST /api/workspaces/:id/validate). `type` names the rule kind (required_property, allowed_values, name_pattern,
 * forbidden_relationship, max_nesting); `params` holds that kind's fields, checked by the model layer before storing.
 */
export const validationRules = pgTable(
  "validation_rules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    ord: integer("ord").notNull(),
    type: text("type").notNull(),
    severity: text("severity").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("validation_rules_org_idx").on(t.organizationId, t.ord)],
);
