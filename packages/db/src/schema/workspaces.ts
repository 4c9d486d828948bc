import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { ModelInfo } from "../types.ts";
import { organizations } from "./organizations.ts";

export const workspaces = pgTable(
  "workspaces",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    /** Model-level data of the exchange format: identifier, name, documentation, metadata. */
    model: jsonb("model").$type<ModelInfo>().notNull().default({}),
    /**
     * The revision of the last change group (the change log): gapless per workspace, allocated by packages/model's
     * withChange under this row's lock, so concurrent writers commit in revision order.
     */
    revision: bigint("revision", { mode: "number" }).notNull().default(0),
    /**
     * History retention (HISTORY_RETENTION_DAYS) dropped the field-level detail of change groups up to this revision
     * except what versions need: a state at or before it is reconstructed only at a version's revision.
     */
    historyCompactedThrough: bigint("history_compacted_through", { mode: "number" }).notNull().default(0),
    /**
     * Set when the workspace no longer takes changes (a draft merged, discarded or closed): the reason, which the
     * change log's openChange answers as 409. On this row so that a writer waiting on its lock re-reads it.
     */
    readOnlyReason: text("read_only_reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("workspaces_org_idx").on(t.organizationId)],
);
