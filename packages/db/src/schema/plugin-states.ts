import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The runtime switch of each plugin. The plugins themselves are files fixed at build time (plugins/<id>/plugin.json);
 * only the enabled flag is data. A plugin without a row is disabled.
 */
export const pluginStates = pgTable("plugin_states", {
  pluginId: text("plugin_id").primaryKey(),
  enabled: boolean("enabled").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text("updated_by"),
});
