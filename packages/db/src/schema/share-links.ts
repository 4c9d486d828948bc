import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { workspaces } from "./workspaces.ts";

/**
 * Read-only links to a view or to a workspace's whole report, for people without an account (/s/<token>). Only the
 * SHA-256 of the clear token is stored, looked up by it (as API tokens); the clear token is shown once, at creation.
 * Revoking deletes the row; an expired row answers 404 like a revoked one. `frame_ancestors` is the link's own CSP
 * frame-ancestors value (where it may be embedded), null for 'none'.
 */
export const shareLinks = pgTable(
  "share_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    workspaceId: uuid("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    viewId: text("view_id"),
    tokenHash: text("token_hash").notNull().unique(),
    frameAncestors: text("frame_ancestors"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdBy: text("created_by"),
    createdByName: text("created_by_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("share_links_ws_idx").on(t.workspaceId, t.createdAt)],
);
