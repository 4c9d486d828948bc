import { sql } from "drizzle-orm";
import { bigint, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";
import { workspaces } from "./workspaces.ts";

/**
 * A draft: a workspace (workspace_id, with its own content and change log) forked from `base_workspace_id` at
 * `base_revision`. Its rows keep the base's object ids (every content table is keyed by workspace and id), so a merge
 * compares and writes objects by the same id on both sides. state: open | submitted | merged | discarded | closed
 * (its base was deleted); only open and submitted drafts take writes (the change log's openChange refuses the rest).
 * Drafts are not listed among the organization's workspaces, only under their base.
 */
export const drafts = pgTable(
  "drafts",
  {
    workspaceId: uuid("workspace_id")
      .primaryKey()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** Null once the base is deleted (the draft is then closed and kept for export). */
    baseWorkspaceId: uuid("base_workspace_id").references(() => workspaces.id, { onDelete: "set null" }),
    /** The base's name when forked, kept for a draft whose base is gone. */
    baseName: text("base_name").notNull(),
    baseRevision: bigint("base_revision", { mode: "number" }).notNull(),
    state: text("state").notNull().default("open"),
    authorId: text("author_id"),
    authorName: text("author_name"),
    /** How the author came in (browser, api_token, mcp) and the client's name: "Claude proposed 14 changes". */
    viaKind: text("via_kind"),
    viaName: text("via_name"),
    /** An assistant's conversation (MCP: OAuth client or API token + user) that reuses this draft while it is open. */
    conversation: text("conversation"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedReason: text("closed_reason"),
    /** The base's revision of the merge's change group. */
    mergedRevision: bigint("merged_revision", { mode: "number" }),
    mergedBy: text("merged_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("drafts_base_idx").on(t.baseWorkspaceId, t.createdAt),
    index("drafts_conversation_idx")
      .on(t.organizationId, t.conversation)
      .where(sql`conversation is not null and state in ('open', 'submitted')`),
  ],
);

/** A review of a draft: approve or request_changes, with a comment. The latest per reviewer counts. */
export const draftReviews = pgTable(
  "draft_reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    draftId: uuid("draft_id")
      .notNull()
      .references(() => drafts.workspaceId, { onDelete: "cascade" }),
    reviewerId: text("reviewer_id").notNull(),
    reviewerName: text("reviewer_name"),
    decision: text("decision").notNull(),
    comment: text("comment").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("draft_reviews_draft_idx").on(t.draftId, t.createdAt)],
);

/** A comment on a draft, optionally on one of its changed objects (object_id). */
export const draftComments = pgTable(
  "draft_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    draftId: uuid("draft_id")
      .notNull()
      .references(() => drafts.workspaceId, { onDelete: "cascade" }),
    authorId: text("author_id"),
    authorName: text("author_name"),
    objectId: text("object_id"),
    text: text("text").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("draft_comments_draft_idx").on(t.draftId, t.createdAt)],
);
