ALTER TABLE "api_tokens" ADD COLUMN "mcp_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Tokens that MCP clients already hold through OAuth (each grant has refresh tokens) become MCP-only too.
UPDATE "api_tokens" SET "mcp_only" = true WHERE "id" IN (SELECT "api_token_id" FROM "oauth_refresh_tokens");
