import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { apiTokens } from "./api-tokens.ts";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";
import { workspaces } from "./workspaces.ts";

/**
 * OAuth clients of the MCP endpoint, registered dynamically (RFC 7591): public clients (no secret, PKCE), known by
 * their exact redirect URIs. `used_at` is set when the client first obtains tokens; a registration still unused a
 * day later is deleted.
 */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    clientId: text("client_id").primaryKey(),
    clientName: text("client_name").notNull(),
    redirectUris: jsonb("redirect_uris").$type<string[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("oauth_clients_created_idx").on(t.createdAt)],
);

/**
 * Authorization requests waiting for the user's decision on the consent page. The browser carries only a handle
 * (its SHA-256 is stored); the client's redirect URI, PKCE challenge and state stay here, so the decision cannot
 * change them. The first signed-in user who opens it owns it; it is answered once, within minutes.
 */
export const oauthRequests = pgTable(
  "oauth_requests",
  {
    handleHash: text("handle_hash").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    state: text("state"),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (t) => [index("oauth_requests_expires_idx").on(t.expiresAt)],
);

/**
 * Refresh tokens of OAuth grants (SHA-256 only). A grant is one personal API token (the access token, whose secret
 * is replaced on every refresh); each refresh uses its token up and issues the next one. Presenting a used one again
 * revokes the grant. Revoking the API token ends its refresh tokens with it.
 */
export const oauthRefreshTokens = pgTable(
  "oauth_refresh_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    apiTokenId: uuid("api_token_id")
      .notNull()
      .references(() => apiTokens.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("oauth_refresh_tokens_grant_idx").on(t.apiTokenId)],
);

/**
 * Authorization codes a user granted on the consent page: SHA-256 of the code (never the code), the PKCE challenge,
 * the organization and optional workspace the token will be bound to; used once, within minutes.
 */
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    codeHash: text("code_hash").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.clientId, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    workspaceId: uuid("workspace_id").references(() => workspaces.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    codeChallenge: text("code_challenge").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("oauth_codes_expires_idx").on(t.expiresAt)],
);
