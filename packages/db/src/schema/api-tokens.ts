import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";
import { workspaces } from "./workspaces.ts";

/**
 * Personal API tokens. Only the SHA-256 of the clear token is stored (looked up by it, never by a slow hash); the
 * role is never stored but re-resolved from the membership on each request. Deleting a pinned workspace deletes
 * its tokens rather than widening them to the whole organization. A token an MCP client obtained through OAuth is
 * `mcp_only`: the gateway accepts it on the MCP endpoint alone.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the clear token, for recognising it in a list. */
    prefix: text("prefix").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    mcpOnly: boolean("mcp_only").notNull().default(false),
    /**
     * An assistant's token (set when created, and for every OAuth-connected MCP client): where the organization has
     * "assistants write to drafts" on, its MCP session writes into a draft, never a base workspace.
     */
    assistant: boolean("assistant").notNull().default(false),
    /**
     * A pinned token's working draft: a draft of its pinned workspace that it activated (POST
     * /api/workspaces/:draft/activate, MCP activate_workspace), where its REST and MCP calls then act instead of the
     * pinned workspace; null: the pinned workspace itself. Never moves its owner's own choice (user_selections).
     */
    activeDraftId: uuid("active_draft_id").references(() => workspaces.id, { onDelete: "set null" }),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);
