import type { apiTokens } from "@ams/db";
import { z } from "@hono/zod-openapi";

/**
 * The OAuth grant an MCP client obtained on the consent page, when the token is one: its access token lasts an hour,
 * and the client renews it with its refresh token without the user (README "OAuth for MCP clients").
 */
export const OAuthGrant = z
  .object({
    client_name: z.string().openapi({ description: "The client's name as it registered" }),
    renewed_at: z.string().openapi({ description: "When the client last obtained an access token (or first did)" }),
    renewable_until: z.string().nullable().openapi({
      description: "Until when its current refresh token can renew the grant (null: none left; allow it again)",
    }),
  })
  .openapi("OAuthGrant");

export const ApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    organization_id: z.string(),
    workspace_id: z.string().nullable(),
    expires_at: z.string().nullable(),
    expired: z.boolean().openapi({ description: "The token itself has lapsed (an OAuth grant's renews itself)" }),
    created_at: z.string(),
    oauth_grant: OAuthGrant.nullable().openapi({ description: "Set when an MCP client holds it through OAuth" }),
    assistant: z.boolean().openapi({
      description:
        "An assistant's token (an OAuth-connected MCP client's always is): where the organization has assistants " +
        "write to drafts, its MCP session writes into a draft",
    }),
  })
  .openapi("ApiToken");

/** Creation answers once with the clear token; it is never shown again. */
export const CreatedApiToken = ApiToken.extend({ token: z.string() }).openapi("CreatedApiToken");

export type OAuthGrant = z.infer<typeof OAuthGrant>;
export type ApiToken = z.infer<typeof ApiToken>;
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const CreateApiTokenInput = z.object({
  name: z.string().trim().min(1).max(100).default("API token"),
  organization_id: z.uuid(),
  workspace_id: z.uuid().nullish(),
  expires_at: z.iso.datetime({ offset: true }).nullish(),
  assistant: z.boolean().optional().openapi({
    description: "A token an assistant uses: it proposes in drafts where the organization says so (default false)",
  }),
});

export type CreateApiTokenInput = z.infer<typeof CreateApiTokenInput>;

type Row = typeof apiTokens.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toApiToken(row: Row, now: Date, oauthGrant: OAuthGrant | null = null): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    organization_id: row.organizationId,
    workspace_id: row.workspaceId,
    expires_at: iso(row.expiresAt),
    expired: row.expiresAt !== null && new Date(row.expiresAt).getTime() <= now.getTime(),
    assistant: row.assistant || row.mcpOnly,
    created_at: new Date(row.createdAt).toISOString(),
    oauth_grant: oauthGrant,
  };
}
