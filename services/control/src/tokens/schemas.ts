import type { apiTokens } from "@ams/db";
import { z } from "@hono/zod-openapi";

export const ApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    organization_id: z.string(),
    workspace_id: z.string().nullable(),
    expires_at: z.string().nullable(),
    expired: z.boolean(),
    created_at: z.string(),
  })
  .openapi("ApiToken");

/** Creation answers once with the clear token; it is never shown again. */
export const CreatedApiToken = ApiToken.extend({ token: z.string() }).openapi("CreatedApiToken");

export type ApiToken = z.infer<typeof ApiToken>;
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;

export const CreateApiTokenInput = z.object({
  name: z.string().trim().min(1).max(100).default("API token"),
  organization_id: z.uuid(),
  workspace_id: z.uuid().nullish(),
  expires_at: z.iso.datetime({ offset: true }).nullish(),
});

export type CreateApiTokenInput = z.infer<typeof CreateApiTokenInput>;

type Row = typeof apiTokens.$inferSelect;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toApiToken(row: Row, now: Date): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    organization_id: row.organizationId,
    workspace_id: row.workspaceId,
    expires_at: iso(row.expiresAt),
    expired: row.expiresAt !== null && new Date(row.expiresAt).getTime() <= now.getTime(),
    created_at: new Date(row.createdAt).toISOString(),
  };
}
