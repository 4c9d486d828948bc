import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * The change log: one group per user action on a workspace's content, numbered by the workspace's gapless revision.
 * Written by packages/model's withChange in the same transaction as the change; its entries by the capture triggers
 * of migration 0018. History, diffs, revert, live events and graph sync all read it.
 */
export const changeGroups = pgTable(
  "change_groups",
  {
    workspaceId: uuid("workspace_id").notNull(),
    revision: bigint("revision", { mode: "number" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The user who made the change; null for the system (seed, background work). */
    actorId: text("actor_id"),
    actorName: text("actor_name"),
    /** The way the change came in. */
    viaKind: text("via_kind").notNull(),
    /** The API token's name, the MCP client's name, the imported file's name. */
    viaName: text("via_name"),
    requestId: text("request_id"),
    /** One line: what the change did ("Renamed element 'CRM' to 'CRM system'"). */
    summary: text("summary").notNull(),
    /** How many entries the group has (an import's: every row it replaced and wrote). */
    entryCount: integer("entry_count").notNull().default(0),
    /** The kinds of object it touched (element, view, ...): the activity list filters by them without the entries. */
    kinds: text("kinds").array().notNull().default(sql`'{}'::text[]`),
    /**
     * The first 20 entries as the workspace history lists them, `[kind, object_id, op, logged name, ref]` (migration
     * 0026's ams_change_group_objects, written when the group closes): a history page reads one row per group
     * instead of building this from the entries. Null for groups written before it (read from the entries).
     */
    objects: jsonb("objects"),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.revision] }),
    foreignKey({ columns: [t.workspaceId], foreignColumns: [workspaces.id] }).onDelete("cascade"),
    check("change_groups_via_kind_check", sql`via_kind in ('browser', 'api_token', 'mcp', 'import', 'system')`),
  ],
);

/**
 * One object touched by a change group: its kind, id and the whole row before and after (jsonb, without workspace_id
 * and revision; null before a create, null after a delete). owner_id is the view of a node or connection, the owner of
 * a property value, the concept a folder entry refers to: an element's or a view's history finds them by it.
 * No foreign key (an import writes hundreds of thousands of entries; one RI check per row would cost more than the
 * entry): the workspace's deletion removes its entries by trigger.
 */
export const changeEntries = pgTable(
  "change_entries",
  {
    workspaceId: uuid("workspace_id").notNull(),
    revision: bigint("revision", { mode: "number" }).notNull(),
    seq: integer("seq").notNull(),
    kind: text("kind").notNull(),
    objectId: text("object_id").notNull(),
    ownerId: text("owner_id"),
    op: text("op").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.revision, t.seq] }),
    // Every entry is in one of the two lookup indexes: the creation of an owned object (a node, connection, property
    // value or folder entry of an owner) is found by its owner only (migration 0033: an import's entries are mostly
    // such creations, and each index entry costs the import as much as the row).
    index("change_entries_object_idx")
      .on(t.workspaceId, t.kind, t.objectId, t.revision)
      .where(sql`op <> 'create' or owner_id is null`),
    index("change_entries_owner_idx").on(t.workspaceId, t.ownerId, t.revision).where(sql`owner_id is not null`),
    check(
      "change_entries_kind_check",
      sql`kind in ('element', 'relationship', 'view', 'node', 'connection', 'folder', 'property_definition', 'property_value', 'model')`,
    ),
    check("change_entries_op_check", sql`op in ('create', 'update', 'delete')`),
  ],
);
